#!/usr/bin/env python3
"""A random player for tallywood's exec protocol (docs/protocol.md).

    tallywood sim --policy 'exec:python3 testdata/protocol/random_player.py'

Picks uniformly among the options with a generator seeded by the player
seed, so a game is the same every time it is
played. Standard library only.
"""
import json
import random
import sys

PROTOCOL = 2


def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def main():
    rng = random.Random(0)
    for line in iter(sys.stdin.readline, ""):
        msg = json.loads(line)
        kind = msg["type"]
        if kind == "hello":
            send({"type": "hello", "protocol": PROTOCOL, "name": "random_player.py"})
        elif kind == "game":
            rng = random.Random(msg["player_seed"])
        elif kind == "decision":
            send({"type": "answer", "id": rng.choice(msg["options"])["id"]})
        # "rules" (not asked for) and "end" need no answer.


if __name__ == "__main__":
    main()
