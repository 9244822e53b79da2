# SPDX-License-Identifier: BSD-3-Clause
# tests/diagnose.mk -- `bitsift diagnose`: the planted-drift test (a drift
# of every family planted in every example schema, packets written by the
# encoder with the drifted schema, the search run with the original; see
# tests/diagnose/planted_drift.c), the command's golden run
# (tests/diagnose/cli.sh), and its bounds when many types fail (the budget,
# the stop, the CPU time: search_budget.c, many-types.sh).
check_PROGRAMS += tests/diagnose/planted_drift
tests_diagnose_planted_drift_SOURCES = tests/diagnose/planted_drift.c
tests_diagnose_planted_drift_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/lib/analysis
tests_diagnose_planted_drift_LDADD = lib/libbitsift.la -lm
# The search's budget and its stop (a signal), on 12 failing types.
check_PROGRAMS += tests/diagnose/search_budget
tests_diagnose_search_budget_SOURCES = tests/diagnose/search_budget.c
tests_diagnose_search_budget_LDADD = lib/libbitsift.la
# A packet type's view reads its packets as the whole schema does, with
# every kind of candidate change (the guard of lib/analysis/diagnose_views.c).
check_PROGRAMS += tests/diagnose/views_equivalence
tests_diagnose_views_equivalence_SOURCES = tests/diagnose/views_equivalence.c
tests_diagnose_views_equivalence_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/lib/analysis
tests_diagnose_views_equivalence_LDADD = lib/libbitsift.la
# Where fields are written (bitsift_schema_field_source), on shooter.bss.
check_PROGRAMS += tests/diagnose/field_source
tests_diagnose_field_source_SOURCES = tests/diagnose/field_source.c
tests_diagnose_field_source_LDADD = lib/libbitsift.la
TESTS += tests/diagnose/field_source tests/diagnose/planted_drift tests/diagnose/cli.sh \
	tests/diagnose/search_budget tests/diagnose/many-types.sh tests/diagnose/views_equivalence
EXTRA_DIST += tests/diagnose/cli.sh tests/diagnose/many-types.sh tests/diagnose/make-many-types.sh
