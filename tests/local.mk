# tests/local.mk -- unit tests (cmocka, TAP), the reference vector replay,
# and the randomized reader test.
