"""Every emulated board draws its own campaign id. On
main two `dicetray sim --rp2040 --headless` boards (seed 1, then the default
there) made the same campaign id, so their backups collided as one
campaign's lineages; now the id is drawn per flash, as the desktop
simulator's is: the firmware mixes the flash chip's unique id (a new one
for each new flash image) into the ring oscillator's bits."""

import boards



def campaign(flash, seed=1):
    """The campaign id and device id of a board booted on `flash`."""
    with boards.board(flash, seed=seed) as em:
        em.wait_app(boards.HANG)
        with boards.device(em.port) as dev:
            info = dev.info()
    return info["campaign"], info["device"]


def test_each_new_flash_draws_its_own_campaign_id(tmp_path):
    a = campaign(tmp_path / "a" / "rp2040-flash.bin")
    b = campaign(tmp_path / "b" / "rp2040-flash.bin")
    assert a[0] != b[0] and a[1] != b[1], (a, b)          # two boards, the same seed
    assert campaign(tmp_path / "a" / "rp2040-flash.bin") == a   # the same flash again: kept
    (tmp_path / "a" / "rp2040-flash.bin").unlink()          # a fresh flash in that folder
    fresh = campaign(tmp_path / "a" / "rp2040-flash.bin")
    assert fresh[0] not in (a[0], b[0]), (fresh, a, b)
