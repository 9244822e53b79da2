#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# fuzz/scripts/schema-error-seeds.sh -- writes small schemas with one
# mistake each into DIR (corpus/fuzz_schema by `make fuzz-seeds`): seeds
# that reach the compiler's diagnostics for type arguments, relative bases,
# vector components, enum values and condition expressions, which random
# mutations of valid schemas reach only rarely. Each file is named
# schema-err-<what>; two valid ones (schema-cond-*) have conditions with
# literals (true, false, a constant on the left).
set -eu
dir=${1:?usage: schema-error-seeds.sh DIR}
head='protocol p { id 1; crc on; }
enum E { a, b, c }
struct Pair { int(0, 3) a; bool b; }
'
seed() { # name, packet body
    printf '%spacket t {\n    int(0, 7) n;\n    E e;\n    %s\n}\n' "$head" "$2" >"$dir/schema-$1"
}
seed err-int-no-comma        'int(5 4) x;'
seed err-int-min-above-max   'int(5, 4) x;'
seed err-int-no-rparen       'int(1, 2 x;'
seed err-not-nothing         'if (!) { bool x; }'
seed err-minus-nothing       'if (n == -) { bool x; }'
seed err-enum-unknown-name   'if (e == nope) { bool x; }'
seed err-and-broken          'if (n == 1 && ) { bool x; }'
seed err-or-broken           'if (n == 1 || ) { bool x; }'
seed err-paren-unclosed      'if ((n == 1) { bool x; }'
seed err-rel-base-bad        'sequence_relative(-) x;'
seed err-rel-base-int32      'int_relative(3000000000) x;'
seed err-seq-base-range      'sequence_relative(70000) x;'
seed err-objidx-base-int32   'object_index(5000000000, 10) x;'
seed err-objidx-no-max       'object_index(5 10) x;'
seed err-cfloat-no-comma     'compressed_float(1 2, 3) x;'
seed err-cfloat-min-above    'compressed_float(2, 1, 0.1) x;'
seed err-cfloat-infinite     'compressed_float(-1e308, 1e308, 1) x;'
seed err-cfloat-too-fine     'compressed_float(0, 1, 1e-30) x;'
seed err-vector-string       'vector3(string(4)) x;'
seed err-vector-bytes        'vector3(bytes(2)) x;'
seed err-vector-int-rel      'vector3(int_relative(3)) x;'
seed err-vector-objidx       'vector3(object_index(1, 10)) x;'
seed err-vector-seq-rel      'vector3(sequence_relative(1)) x;'
seed err-vector-no-lparen    'vector3 int(0, 1) x;'
seed err-vector-packet       'vector2(t) x;'
seed err-s3-too-few-bits     'smallest_three(1) x;'
seed err-s3-too-many-bits    'smallest_three(40) x;'
seed err-s3-no-rparen        'smallest_three(8 x;'
seed err-self-count          'int(0, 3) x[x max 3];'
seed err-declared-later      'if (later == 1) { bool y; } int(0, 1) later;'
seed err-dot-into-int        'if (n.x == 1) { bool y; }'
seed err-dot-into-enum-value 'if (e == a.b) { bool y; }'
seed err-int-rel-no-rparen   'int_relative(n x;'
seed err-objidx-zero-max     'object_index(1, 0) x;'
seed err-array-as-value   'uint8 arr[2]; if (arr == 1) { bool y; }'
seed err-array-fields     'Pair ps[2]; if (ps.a == 1) { bool y; }'
seed err-dot-no-name      'Pair p; if (p. == 1) { bool y; }'
seed err-float-in-cond    'float f; if (f == 1) { bool y; }'
seed err-check-too-long   "check(\"$(printf '%0300d' 0)\");"
seed check-escapes        'check("a\"b\\c");'
seed cond-literals          'if (true) { bool y; } if (false && n > 2) { bool z; }'
seed cond-const-first       'if (3 == n) { bool y; }'
seed err-count-unknown       'uint8 x[nope max 3];'
# Defaults of each kind, value lists, array sizes and check values.
seed default-bool-words      'if (n == 1) { bool x default true; bool y default false; }'
seed default-floats          'if (n == 1) { float x default 1.5; double y default -2.25; compressed_float(0, 1, 0.01) z default 0.5; }'
seed default-with-list       'if (n == 1) { int(0, 9) x in { 1 } default 2; }'
seed list-enum-names         'E x in { a, c }; bool y == true; int(0, 9) z == 3;'
seed err-default-enum-unknown 'if (n == 1) { E x default nope; }'
seed err-default-bits-too-big 'if (n == 1) { bits(3) x default 9; }'
seed err-default-bits-negative 'if (n == 1) { bits(3) x default -1; }'
seed err-default-int-range   'if (n == 1) { int(0, 3) x default 7; }'
seed err-default-bool-two    'if (n == 1) { bool x default 2; }'
seed err-default-float-word  'if (n == 1) { float x default a; }'
seed err-default-string      'if (n == 1) { string(4) x default 1; }'
seed err-default-struct      'if (n == 1) { Pair x default 1; }'
seed err-list-on-array       'uint8 x[2] in { 1, 2 };'
seed err-list-float          'float x in { 1.5 };'
seed err-list-duplicate      'int(0, 9) x in { 1, 1 };'
seed err-list-unclosed       'int(0, 9) x in { 1, 2 ;'
seed err-list-too-long       "int(0, 2000) x in { $(seq -s ', ' 0 1100) };"
seed err-array-zero          'uint8 x[0];'
seed err-array-max-zero      'uint8 x[max 0];'
seed err-array-no-rbracket   'uint8 x[3;'
seed err-sparse-no-lparen    'uint8 x[3] sparse flags;'
seed err-check-value-too-big 'check(0x1ffffffff);'
seed err-check-no-value      'check();'
seed err-align-args          'align(3);'
printf '%s' 'protocol p { id 1; }
enum E { a = 9223372036854775807, b }
packet t { E e; }
' >"$dir/schema-err-enum-overflow"
printf '%s' 'protocol p { id 1; }
enum E : int(0, 3) { a = 5 }
packet t { E e; }
' >"$dir/schema-err-enum-out-of-range"
