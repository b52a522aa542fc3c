"""The wire: messages as plain data, the codec that turns them into bytes and back (its
strict reference path and its quick msgspec path), what a seat reads of a message before
decoding it, and the keys and signatures of an envelope."""
