"""The emulator's heap probe (emulator/src/heap.mjs) against the firmware's
own gc: the heap it reads from the collector's table is the one
gc.mem_free() and gc.mem_alloc() count, so the lowest free heap the
long-journal tests and make bench report is MicroPython's own figure."""

import boards



def test_the_probe_reads_the_heap_the_collector_counts(tmp_path):
    with boards.board(tmp_path / "flash.bin", seed=3) as em:
        em.wait_app()
        with boards.device(em.port) as dev:
            info = dev.info(collect=True)
        st = em.stats()
    # The table's layout: every block free or used, as gc counts them.
    assert abs(st["heapSize"] - (info["heap_free"] + info["heap_used"])) <= 64, (st, info)
    # The free heap now: the answer's JSON and a few loop passes since.
    assert 0 <= info["heap_free"] - st["heapFree"] <= 8192, (st, info)
    assert st["heapCollections"] >= 1 and 0 < st["heapLow"] <= st["heapSize"]
