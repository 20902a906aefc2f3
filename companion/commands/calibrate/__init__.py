"""`companion calibrate ...`: teach the companion a table, step by step, headless from images.

Steps: ``markers`` (print the tray markers), ``table`` (tray region from a photo of the
markers, or four corners), ``palette`` (die colours), ``faces`` (icon faces), ``dice`` (the
table's own dice, from labelled photos: the reader adapts to them), ``check`` (read a few rolls
and score them), ``list`` and ``use`` (stored profiles). Each step updates one
profile (``--profile NAME``, default the current one, else "default").

The command line and the steps by name are :mod:`.command`; the steps themselves are
:mod:`.table` (snap, markers, table), :mod:`.dice` (palette, faces, dice, check),
:mod:`.zones` and :mod:`.profiles` (the profile a step updates; list, use, show);
:mod:`.values` reads what was typed.
"""
