"""The ground every layer may use: where Dicetray keeps its files, writing
a file the user names, Ctrl-C, a progress bar, the checkout's tools/."""
