"""Re-roll a finished campaign's dice from its revealed seed, without Chronicle.

    python reroll.py chronicle.sqlite            # every turn
    python reroll.py chronicle.sqlite --turn 7   # one turn

Reads the seed (revealed by ``chronicle end``) and the recorded rolls through
Chronicle's public API (``chronicle.read_dice``), throws every die again as
docs/archivists.md describes, and prints each roll whose faces differ. Exit 0
when every die agrees, 1 otherwise. The throwing is the standard library's
alone: it shares no code with Chronicle's own dice.
"""

import hashlib
import random
import sys

import chronicle


def generator(seed, turn, phase):
    """The generator of one (turn, phase): SHA-256 of seed, turn and phase, as an integer."""
    key = f"{seed}\x1f{turn}\x1f{phase}".encode()  # UTF-8
    return random.Random(int.from_bytes(hashlib.sha256(key).digest(), "big"))


def reroll(store, only_turn=None):
    record = chronicle.read_dice(store)
    if record.seed is None:
        print("the seed is not revealed yet (the campaign has not ended)")
        return 1
    generators = {}
    checked = wrong = 0
    for roll in record.rolls:
        if only_turn is not None and roll.turn != only_turn:
            continue
        count, sides = (int(n) for n in roll.dice.split("d"))
        key = (roll.turn, roll.phase)
        gen = generators.setdefault(key, generator(record.seed, roll.turn, roll.phase))
        thrown = [gen.randint(1, sides) for _ in range(count)]
        checked += 1
        if thrown != list(roll.faces):
            wrong += 1
            print(f"turn {roll.turn} roll {roll.seq} ({roll.phase}, {roll.purpose}, "
                  f"{roll.dice}): recorded {list(roll.faces)}, re-rolled {thrown}")
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
