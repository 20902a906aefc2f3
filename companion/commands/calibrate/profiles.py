"""The stored calibration profiles: the one a step updates (``--profile NAME``, default the
current one, else "default"), saving it, and the steps ``list``, ``use`` and ``show``."""

from __future__ import annotations

import argparse
import json
from typing import Any

from companion import paths
from companion.commands.calibrate.values import fail
from companion.words import plural


def target(args: argparse.Namespace) -> Any:

    name = args.profile or paths.profile_store().current_name() or "default"
    return paths.profile_store().load_or_new(name)


def save(args: argparse.Namespace, cp: Any) -> None:

    if args.dry_run:
        print("dry run: nothing saved")
        return
    path = paths.profile_store().save(cp)
    print(f"saved profile {cp.name!r} to {path}")
    if paths.profile_store().current_name() is None:
        paths.profile_store().use(cp.name)
        print(f"{cp.name!r} is now the current profile")


def list_profiles(_args: argparse.Namespace) -> int:
    from calibration.profiles import ProfileError

    try:
        cur = paths.profile_store().current_name()
    except ProfileError as e:  # a bad pointer does not hide the profiles themselves
        print(f"the current-profile choice cannot be read: {e}")
        cur = None
    names = paths.profile_store().names()
    if not names:
        print(f"no profiles yet in {paths.profile_store().profiles_dir}")
        return 0
    for n in names:
        s = paths.profile_store().summary(n)
        mark = "*" if n == cur else " "
        if "error" in s:
            print(f"{mark} {n}: BROKEN - {s['error']}")
        else:
            print(f"{mark} {n}: camera {s['camera'] or '-'}, table {s['table']}, "
                  f"{s['colours']} colours, face sets {', '.join(s['face_sets']) or '-'}, "
                  f"{plural(s['dice_taught'], 'die', 'dice')} taught")
            if s["stale_face_sets"]:
                print(f"    re-learn face sets {', '.join(s['stale_face_sets'])}: they were "
                      "learned with other face features than this version of vision uses")
    return 0


def use_profile(args: argparse.Namespace) -> int:

    p = paths.profile_store().use(args.name)
    print(f"using profile {p.name!r}")
    return 0


def show_profile(args: argparse.Namespace) -> int:

    name = args.name or paths.profile_store().current_name()
    if name is None:
        return fail("no profile chosen; give a name")
    summary = paths.profile_store().summary(name)
    if "error" in summary:  # a missing or unreadable profile is a failure, not a summary
        return fail(str(summary["error"]))
    print(json.dumps(summary, indent=1))
    return 0


__all__ = ["list_profiles", "save", "show_profile", "target", "use_profile"]
