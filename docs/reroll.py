"""Re-roll a finished campaign's dice from its revealed seed, without Chronicle.

    python reroll.py chronicle.sqlite            # every turn
    python reroll.py chronicle.sqlite --turn 7   # one turn

Reads the seed (revealed by ``chronicle end``) and the recorded rolls from the
store, throws every die again as docs/archivists.md describes, and prints each
roll whose faces differ. Exit 0 when every die agrees, 1 otherwise.
Standard library only: it shares no code with Chronicle.
"""

import hashlib
import json
import random
import sqlite3
import sys


def generator(seed, turn, phase):
    """The generator of one (turn, phase): SHA-256 of seed, turn and phase, as an integer."""
    key = f"{seed}\x1f{turn}\x1f{phase}".encode()  # UTF-8
    return random.Random(int.from_bytes(hashlib.sha256(key).digest(), "big"))


def reroll(store, only_turn=None):
    con = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        seed = con.execute("SELECT seed_revealed FROM campaign").fetchone()[0]
        if seed is None:
            print("the seed is not revealed yet (the campaign has not ended)")
            return 1
        rows = con.execute("SELECT turn, seq, phase, purpose, dice, faces FROM rolls "
                           "ORDER BY turn, seq").fetchall()
    finally:
        con.close()
    generators = {}
    checked = wrong = 0
    for turn, seq, phase, purpose, dice, faces in rows:
        if only_turn is not None and turn != only_turn:
            continue
        count, sides = (int(n) for n in dice.split("d"))
        gen = generators.setdefault((turn, phase), generator(seed, turn, phase))
        thrown = [gen.randint(1, sides) for _ in range(count)]
        checked += 1
        if thrown != json.loads(faces):
            wrong += 1
            print(f"turn {turn} roll {seq} ({phase}, {purpose}, {dice}): "
                  f"recorded {json.loads(faces)}, re-rolled {thrown}")
    print(f"{checked} rolls re-rolled, {wrong} differ")
    return 1 if wrong else 0


if __name__ == "__main__":
    args = sys.argv[1:]
    turn = None
    if "--turn" in args:
        at = args.index("--turn")
        turn = int(args[at + 1])
        del args[at:at + 2]
    if len(args) != 1:
        print(__doc__)
        sys.exit(2)
    sys.exit(reroll(args[0], turn))
