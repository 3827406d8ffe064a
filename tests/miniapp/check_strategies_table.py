#!/usr/bin/env python3
"""inputs/README.md's strategy tables (between <!-- strategies:begin --> and <!-- strategies:end -->)
must be what `kfem info --strategies` prints from the registries (src/kfem/assembly/strategies.hpp).

usage: check_strategies_table.py KFEM README [--update]
--update rewrites the README's tables instead (after adding or changing a strategy)."""
import difflib
import subprocess
import sys

BEGIN, END = "<!-- strategies:begin -->", "<!-- strategies:end -->"


def main():
    args = [a for a in sys.argv[1:] if a != "--update"]
    if len(args) != 2:
        sys.exit(__doc__)
    kfem, readme = args
    run = subprocess.run([kfem, "info", "--strategies"], capture_output=True, text=True)
    if run.returncode != 0 or not run.stdout.strip():
        sys.exit(f"kfem info --strategies failed (exit {run.returncode}):\n{run.stderr}")
    text = open(readme, encoding="utf-8").read()
    if text.count(BEGIN) != 1 or text.count(END) != 1 or text.index(BEGIN) > text.index(END):
        sys.exit(f"{readme}: expected one {BEGIN} ... {END} block")
    head, rest = text.split(BEGIN)
    current, tail = rest.split(END)
    wanted = "\n" + run.stdout
    if current == wanted:
        return
    if "--update" in sys.argv[1:]:
        with open(readme, "w", encoding="utf-8") as f:
            f.write(head + BEGIN + wanted + END + tail)
        print(f"{readme}: strategy tables updated")
        return
    diff = difflib.unified_diff(current.splitlines(True), wanted.splitlines(True), f"{readme} (now)",
                                "kfem info --strategies")
    sys.stdout.writelines(diff)
    sys.exit(f"{readme}: the strategy tables differ from the registries; regenerate them with\n"
             f"  {sys.argv[0]} {kfem} {readme} --update")


if __name__ == "__main__":
    main()
