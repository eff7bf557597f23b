"""Link framing (firmware/link/frame.py): the same module on the device
(MicroPython) and on the host (CPython)."""
from binascii import a2b_base64, b2a_base64

from link import frame as fr
from support import raises

B64 = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="


class Got:
    def __init__(self):
        self.frames = []
        self.over = 0
        self.bad = 0

    def __call__(self, text):
        if text is None:
            self.over += 1
            return
        try:
            self.frames.append(fr.decode(bytes(text)))
        except ValueError:
            self.bad += 1


def test_roundtrip_and_alphabet():
    for n in (0, 1, 2, 3, 100, fr.MAX_REQ_PAYLOAD):
        p = bytes([(i * 7 + 3) & 0xFF for i in range(n)])
        line = fr.encode(fr.ACT, 513 + n, p)
        assert line[0] == fr.MARK and line[-1] == fr.NL
        for b in line[1:-1]:
            assert b in B64, b   # no control byte: no 0x03, nothing a tty rewrites
        typ, seq, q = fr.decode(line[1:-1])
        assert (typ, seq, bytes(q)) == (fr.ACT, 513 + n, p)
    assert len(fr.encode(fr.SNAP, 1, bytes(fr.MAX_REQ_PAYLOAD))) <= fr.MAX_REQ < 512
    assert len(fr.encode(fr.SNAP, 1, bytes(fr.MAX_ANS_PAYLOAD))) <= fr.MAX_ANS
    assert len(fr.encode(fr.SNAP, 1, bytes(fr.MAX_REQ_PAYLOAD + 3))) > fr.MAX_REQ


def test_decode_refuses_damage():
    text = fr.encode(fr.INFO, 7, b"hello")[1:-1]
    assert fr.decode(text)[1] == 7
    raises(ValueError, fr.decode, text[:-4])               # torn
    raises(ValueError, fr.decode, b"QUJD")                  # too short
    raises(ValueError, fr.decode, b"")
    for i in range(len(text)):
        for bit in (1, 2, 4, 8, 16, 32, 64):
            bad = bytearray(text)
            bad[i] ^= bit
            try:
                fr.decode(bytes(bad))
            except ValueError:
                continue
            raise AssertionError("flip of bit %d in byte %d accepted" % (bit, i))
    body = bytearray(a2b_base64(text))
    body[4] ^= 1                                             # payload changed, CRC not
    raises(ValueError, fr.decode, b2a_base64(bytes(body))[:-1])


def test_lines_resync_after_garbage_and_torn_frames():
    a = fr.encode(fr.INFO, 1)
    b = fr.encode(fr.EVENTS, 2, b"\x00")
    c = fr.encode(fr.ACT, 3, b"{}")
    stream = (b"\x01\x02junk>>> " + a[:9] + b"\r\n" + a + b"more junk" + b[:12] + c
              + b"\x00\xff" + b.replace(b"\n", b"\r\n"))
    for step in (1, 3, 64, len(stream)):
        got = Got()
        ln = fr.Lines(fr.MAX_REQ)
        for i in range(0, len(stream), step):
            chunk = stream[i:i + step]
            ln.push(chunk, len(chunk), got)
        seqs = []
        for f in got.frames:
            seqs.append(f[1])
        assert seqs == [1, 3, 2], (step, seqs)   # the torn copies of a and b are skipped
        assert got.over == 0 and got.bad == 1     # a's torn copy ended in a newline


def test_lines_refuse_long_frames_without_storing_them():
    ln = fr.Lines(fr.MAX_REQ)
    got = Got()
    long_line = b"#" + b"QUFB" * 200 + b"\n"
    ok = fr.encode(fr.INFO, 9)
    data = long_line + ok + long_line
    ln.push(data, len(data), got)
    assert got.over == 2 and len(got.frames) == 1 and got.frames[0][1] == 9
    assert len(ln.buf) == fr.MAX_REQ
    data = b"#" + b"QUFB" * 200      # still inside it: nothing reported yet
    ln.push(data, len(data), got)
    assert got.over == 2
    ln.push(ok, len(ok), got)          # a new frame starts: the long one is dropped
    assert len(got.frames) == 2


def test_a_page_built_in_place_is_the_encoded_line():
    # LOG answers (docs/protocol.md): a journal page of LOG_PAGE bytes and
    # its 8-byte head in one frame, four times protocol 1's 1 KB line.
    pg = fr.Page(8 + fr.LOG_PAGE)
    assert fr.MAX_ANS_PAYLOAD >= 8 + fr.LOG_PAGE
    for n in (0, 1, 2, 3, 100, 8 + fr.LOG_PAGE):
        p = bytes([(i * 11 + n) & 0xFF for i in range(n)])
        pg.body[fr.HEAD:fr.HEAD + n] = p
        line = b"#" + pg.text(fr.LOG | fr.ANSWER, 700 + n, n)
        assert line == fr.encode(fr.LOG | fr.ANSWER, 700 + n, p)
        assert len(line) <= fr.MAX_ANS
        got = Got()
        ln = fr.Lines(fr.MAX_ANS + 64)
        ln.push(line, len(line), got)
        assert len(got.frames) == 1 and got.frames[0][1] == 700 + n and bytes(got.frames[0][2]) == p
    assert len(fr.encode(fr.LOG | fr.ANSWER, 1, bytes(8 + fr.LOG_PAGE))) > 4 * 1024


def test_a_binary_page_is_the_same_body_behind_a_checked_length():
    # LOGB answers (docs/protocol.md, "Binary pages"): BIN, len u16, its
    # check, then type, seq, payload and a CRC of type, seq and the
    # payload's first BIN_COVER bytes; a view of the page, no copy.
    from binascii import crc32
    from struct import unpack_from
    pg = fr.Page(12 + fr.LOG_PAGE)
    for n in (12, 13, 100, 12 + fr.LOG_PAGE):
        p = bytes([(i * 7 + n) & 0xFF for i in range(n)])
        pg.body[fr.HEAD:fr.HEAD + n] = p
        f = bytes(pg.binary(fr.LOGB | fr.ANSWER, 900 + n, n))
        size = fr.HEAD + n + fr.CRC
        assert len(f) == fr.BIN_HEAD + size and f[0] == fr.BIN
        assert f[1] | (f[2] << 8) == size and f[3] == 0x5A ^ f[1] ^ f[2]
        body = f[fr.BIN_HEAD:]
        assert body[0] == fr.LOGB | fr.ANSWER and body[1] | (body[2] << 8) == 900 + n
        assert body[fr.HEAD:fr.HEAD + n] == p
        want = crc32(body[:fr.HEAD + fr.BIN_COVER]) & 0xFFFFFFFF
        assert unpack_from("<I", body, fr.HEAD + n)[0] == want
        # The same page still makes a text line, its CRC over everything.
        line = b"#" + pg.text(fr.LOG | fr.ANSWER, 5, n)
        assert line == fr.encode(fr.LOG | fr.ANSWER, 5, p)
    # To the firmware's Lines (which only ever read requests) a binary
    # frame is noise: the next '#' starts the frame after it.
    got = Got()
    ln = fr.Lines(fr.MAX_ANS + 64)
    f = bytes(pg.binary(fr.LOGB | fr.ANSWER, 3, 12))
    line = fr.encode(fr.INFO, 4, b"x")
    ln.push(f + line, len(f) + len(line), got)
    assert [g[1] for g in got.frames] == [4]


def test_lines_cut_a_window_of_answers_with_damage_between():
    # Several answers back to back, as a window brings them: one torn by
    # the next frame's '#', one with a flipped bit; the others come through.
    pg = fr.Page(8 + fr.LOG_PAGE)
    lines = []
    for k in range(5):
        pg.body[fr.HEAD:fr.HEAD + 300] = bytes([k]) * 300
        lines.append(b"#" + pg.text(fr.LOG | fr.ANSWER, 40 + k, 300))
    torn = lines[1][:200]
    bad = bytearray(lines[3])
    bad[50] = 0x41 if bad[50] != 0x41 else 0x42
    stream = lines[0] + torn + lines[2] + bytes(bad) + lines[4]
    for step in (7, 64, len(stream)):
        got = Got()
        ln = fr.Lines(fr.MAX_ANS + 64)
        for i in range(0, len(stream), step):
            chunk = stream[i:i + step]
            ln.push(chunk, len(chunk), got)
        seqs = []
        for f in got.frames:
            seqs.append(f[1])
        assert seqs == [40, 42, 44] and got.bad == 1, (step, seqs, got.bad)
