#!/usr/bin/env python3
"""A small heuristic player for tallywood's exec protocol (docs/protocol.md).

    tallywood sim --policy 'exec:python3 testdata/protocol/heuristic_player.py'

It scores each option from its id and the player's view with a few fixed
preferences (Campaign and Celebrity for polling, Public Works for Strength,
Assistants to a District rather than the Plaza, never ending the actions
early, drawing from the fuller deck) and breaks ties with a generator
seeded by the player seed. It asks for the rules in the handshake, as a
player that reads the cards would, and takes the number of Districts from
them. Standard library only.
"""
import json
import random
import sys

PROTOCOL = 2

# Preference of each action; higher is better. "end" is taken only when it
# is the one option left worth nothing.
ACTION_SCORE = {
    "campaign": 3.0,
    "celebrity": 2.5,
    "public_works": 2.0,
    "rally": 1.8,
    "direct_appeal": 1.5,
    "research": 1.2,
    "ability": 1.0,
    "favor": 1.0,
    "fundraise": 0.8,
    "plaza_fundraise": 0.6,
    "end": -10.0,
}


def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def score(opt, view, districts):
    kind, a, b, _c = opt["id"].split("/")
    a, b = int(a), int(b)
    if kind in ACTION_SCORE:
        s = ACTION_SCORE[kind]
        if kind in ("public_works", "celebrity"):
            s += 0.3 * b  # higher tiers are worth more
        return s
    if kind == "region":
        # A District rather than the Plaza, where only the wild actions are.
        return -1.0 if a == districts else 0.0
    if kind == "discard":
        return -1.0
    if kind == "keep":
        return 0.0
    if kind == "draw":
        return view["decks"][a]["size"] / 10.0
    return 0.0


def main():
    rng = random.Random(0)
    districts = 4
    for line in iter(sys.stdin.readline, ""):
        msg = json.loads(line)
        kind = msg["type"]
        if kind == "hello":
            send({"type": "hello", "protocol": PROTOCOL, "name": "heuristic_player.py", "rules": True})
        elif kind == "rules":
            districts = len(msg["rules"]["districts"])
        elif kind == "game":
            rng = random.Random(msg["player_seed"])
        elif kind == "decision":
            opts = msg["options"]
            scored = [(score(o, msg["view"], districts) + 0.01 * rng.random(), i) for i, o in enumerate(opts)]
            send({"type": "answer", "id": opts[max(scored)[1]]["id"]})


if __name__ == "__main__":
    main()
