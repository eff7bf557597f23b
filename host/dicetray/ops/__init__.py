"""The operations under every front-end (the command line, the hub's page):
the remote actions, a restore, a tray opened through the hub or on its
port. They say what went wrong as Usage or Fail; the front-end words it."""
