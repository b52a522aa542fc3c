"""Refusal codes in words a player reads in half a second."""

from __future__ import annotations

REASONS: dict[str, str] = {
    # moves (spec/rules.md, section 9)
    "round_over": "the round is over",
    "unknown_seat": "you are not seated at this round",
    "not_active": "you have left this round",
    "not_your_card": "that card is not yours",
    "empty_source": "nothing there to play",
    "not_on_top": "that card is no longer on top",
    "bad_source": "that card cannot go there",
    "bad_slot": "there is no such Post stack",
    "needs_a_one": "only a 1 starts a centre pile",
    "wrong_colour": "that pile is another colour",
    "wrong_value": "that value does not follow",
    "no_pile": "no centre pile takes that card",
    "pile_taken": "someone got there first",
    "stacking_off": "Post stacking is off at this table",
    "same_gender": "stack boy on girl or girl on boy",
    "hand_empty": "your hand is empty",
    "hand_not_empty": "your hand still holds cards",
    "wood_empty": "no Wood pile to turn over",
    "has_play": "not stuck: a face-up card can go to the centre",
    "stuck": "you called stuck: wait for a play or a stalemate",
    "shows_mismatch": "the table disagrees about a card",
    # the lobby and the game
    "not_all_ready": "not everyone is ready",
    "bad_backs": "each player needs a different, allowed deck back",
    "bad_name": "a name is 1 to 32 bytes",
    "back_taken": "another player has that back",
    "bad_target": "the target score must be positive",
    "not_in_lobby": "the game has started",
    "not_in_playing": "the round is not being played",
    "not_in_dealing": "the round is being dealt",
    "not_in_over": "the game is over",
    "not_member": "you are not at this table yet",
    "not_present": "that player has left",
}


def in_words(reason: str) -> str:
    """The words for a refusal code; text that is already words passes through."""
    return REASONS.get(reason.strip(), reason)
