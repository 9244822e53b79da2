-- SPDX-License-Identifier: BSD-3-Clause
-- gen_wireshark.lua -- the run time of every dissector that `bitsift gen
-- wireshark` writes: lib/gen_wireshark.c prints the schema as the table S
-- (ops, enums, packets, conditions) and appends this file, which turns S
-- into ProtoFields and decodes packets exactly as libbitsift's op
-- interpreter (lib/schema_decode.c) does: the same reads, the same checks
-- in the same order, the same failure (kind, bit, field path), the same
-- float32 arithmetic. Wireshark 4.0 runs Lua 5.2: numbers are doubles, so
-- values of more than 53 bits go through Wireshark's UInt64/Int64, and
-- float32 rounding is done by hand (f32 below).
--
-- Bits are read LSB first: bit k of the packet is bit (k mod 8) of byte
-- k / 8, a value's bit i at stream bit pos + i.

local floor, ldexp, frexp, huge = math.floor, math.ldexp, math.frexp, math.huge
local band, bxor, rshift = bit32.band, bit32.bxor, bit32.rshift
local concat, tostring, format = table.concat, tostring, string.format

local P = Proto(S.name, S.title)
local PNAME = S.name

-- ---- float32 ---------------------------------------------------------------

-- x rounded to the nearest float32 (ties to even), infinities past the
-- largest float32: what C's (float) conversion does. One double operation
-- on float32 operands followed by f32 gives the float32 result of that
-- operation (53 >= 2 * 24 + 2: the double rounding is innocuous).
local function round_even(v)
    local f = floor(v)
    local d = v - f
    if d > 0.5 or (d == 0.5 and f % 2 == 1) then
        return f + 1
    end
    return f
end

local FLT_MAX = 3.4028234663852886e38

local function f32(x)
    if x ~= x or x == 0 or x == huge or x == -huge then
        return x
    end
    local m, e = frexp(x) -- x = m * 2^e, 0.5 <= |m| < 1
    if e < -125 then
        return ldexp(round_even(ldexp(x, 149)), -149) -- subnormal: steps of 2^-149
    end
    local r = ldexp(round_even(ldexp(m, 24)), e - 24)
    if r > FLT_MAX then
        return huge
    elseif r < -FLT_MAX then
        return -huge
    end
    return r
end

-- The 32 bits of a float32 value (a double that f32 leaves unchanged).
local function f32_bits(x)
    if x ~= x then
        return 0x7fc00000
    end
    local sign = 0
    if x < 0 or (x == 0 and 1 / x < 0) then
        sign = 0x80000000
        x = -x
    end
    if x == 0 then
        return sign
    end
    if x == huge then
        return sign + 0x7f800000
    end
    local m, e = frexp(x) -- x = m * 2^e
    if e <= -126 then
        return sign + floor(ldexp(x, 149)) -- subnormal
    end
    return sign + (e + 126) * 0x800000 + (ldexp(m, 24) - 0x800000)
end

-- The float32 whose bits are u.
local function f32_from_bits(u)
    local sign = u >= 0x80000000 and -1 or 1
    local e = floor(u / 0x800000) % 256
    local m = u % 0x800000
    if e == 255 then
        if m == 0 then
            return sign * huge
        end
        return 0 / 0
    end
    if e == 0 then
        return sign * ldexp(m, -149)
    end
    return sign * ldexp(m + 0x800000, e - 150)
end

-- The double whose bits are hi:lo.
local function f64_from_bits(lo, hi)
    local sign = hi >= 0x80000000 and -1 or 1
    local e = floor(hi / 0x100000) % 2048
    local m = (hi % 0x100000) * 4294967296 + lo
    if e == 2047 then
        if m == 0 then
            return sign * huge
        end
        return 0 / 0
    end
    if e == 0 then
        return sign * ldexp(m, -1074)
    end
    return sign * ldexp(m + 2 ^ 52, e - 1075)
end

-- ---- 64-bit values -----------------------------------------------------------

local ZERO64 = Int64.new(0)
local ONE64 = Int64.new(1)

-- A slot value as an Int64 (slots of fields wider than 53 bits hold one).
local function I(x)
    if type(x) == "number" then
        return Int64.new(x)
    end
    return x
end

-- A slot value as a number, exact up to 2^53 (counts, relative bases).
local function num(x)
    if type(x) == "number" then
        return x
    end
    return x:tonumber()
end

local function u64_to_i64(u)
    return Int64.new(u:lower(), u:higher())
end

-- ---- CRC32 (zlib's: reflected 0xEDB88320) -------------------------------------

local crc_table = {}
for i = 0, 255 do
    local c = i
    for _ = 1, 8 do
        if c % 2 == 1 then
            c = bxor(rshift(c, 1), 0xEDB88320)
        else
            c = rshift(c, 1)
        end
    end
    crc_table[i] = c
end

local function crc32_bytes(c, bytes, first, last)
    for i = first, last do
        c = bxor(crc_table[band(bxor(c, bytes[i]), 0xff)], rshift(c, 8))
    end
    return c
end

-- The CRC a framed packet must carry: over the protocol id (4 bytes,
-- little-endian), then the packet from its CRC field on, that field as
-- zeros.
local id_bytes = {S.protocol_id % 256, floor(S.protocol_id / 256) % 256,
                  floor(S.protocol_id / 65536) % 256, floor(S.protocol_id / 16777216)}
local function packet_crc(bytes, n)
    local c = crc32_bytes(0xffffffff, id_bytes, 1, 4)
    c = crc32_bytes(c, {0, 0, 0, 0}, 1, 4)
    c = crc32_bytes(c, bytes, S.prefix + 5, n)
    return bxor(c, 0xffffffff)
end

-- ---- fields -------------------------------------------------------------------

local hf = {} -- ProtoField by abbreviation
local fields = {}

local function field(abbrev, make, ...)
    local full = PNAME .. (abbrev ~= "" and "." .. abbrev or "")
    local f = hf[full]
    if not f then
        f = make(full, ...)
        hf[full] = f
        fields[#fields + 1] = f
    end
    return f
end

local PF = ProtoField
local f_crc = field("crc", PF.uint32, "CRC32", base.HEX)
local f_crc_ok = field("crc-good", PF.bool, "CRC32 good")
local f_prefix = field("prefix", PF.bytes, "Prefix")
local packet_names = {}
for t, p in ipairs(S.packets) do
    packet_names[t - 1] = p.name
end
local f_type = field("type", PF.uint32, "Packet type", base.DEC, packet_names)
local f_end = field("end_check", PF.uint32, "End check", base.HEX)
local f_error = field("error", PF.string, "Error")
-- error.bit and error.field as bitsift's own filters spell them, unless a
-- packet type called "error" has fields of those names.
local error_sub = "."
for _, p in ipairs(S.packets) do
    if p.name == "error" then
        error_sub = "-"
    end
end
local f_error_bit = field("error" .. error_sub .. "bit", PF.uint64, "Error bit")
local f_error_field = field("error" .. error_sub .. "field", PF.string, "Error field")
local f_padding = field("padding", PF.bytes, "Padding")

local experts = {}
local groups = {
    overflow = expert.group.MALFORMED, crc = expert.group.CHECKSUM,
    range = expert.group.PROTOCOL, align = expert.group.PROTOCOL,
    check = expert.group.SEQUENCE, string = expert.group.PROTOCOL,
    argument = expert.group.PROTOCOL, schema = expert.group.PROTOCOL
}
local expert_list = {}
for kind, group in pairs(groups) do
    experts[kind] = ProtoExpert.new(PNAME .. ".expert-" .. kind, "bitsift: " .. kind, group,
                                    expert.severity.ERROR)
    expert_list[#expert_list + 1] = experts[kind]
end

-- The ProtoField of each op, from its kind, value kind and range.
local INT32_MIN, INT32_MAX, UINT32_MAX = -2147483648, 2147483647, 4294967295
for _, pk in ipairs(S.packets) do
    if not hf[PNAME .. "." .. pk.name] then -- a packet called "crc" is a text item
        pk.hf = field(pk.name, PF.none, pk.name)
    end
end
for i, op in ipairs(S.ops) do
    local k, v, a = op.k, op.v, op.abbrev
    op.i = i
    if k == "smallest_three" then
        for j, part in ipairs(op.parts) do
            local label = part.abbrev:match("([^.]*)$")
            if j == 1 then
                part.hf = field(part.abbrev, PF.uint32, label)
            else
                part.hf = field(part.abbrev, PF.float, label)
                part.hf_bits = field(part.abbrev .. "-bits", PF.uint32, label .. " bits", base.HEX)
            end
        end
    end
    if a then
        local label = op.name ~= "" and op.name or a:match("([^.]*)$")
        if k == "array" then
            S.ops[i + 1].name_of_array = op.name
            op.hf = field(a .. "-count", PF.uint32, label)
            if op.kind == "flags" then
                op.hf_present = field(a .. "-present", PF.bool, label .. " present")
            elseif op.kind == "indices" or op.kind == "sentinel" or op.kind == "relative" then
                op.hf_index = field(a .. "-index", PF.uint32, label .. " index")
            end
        elseif v == "none" then
            if k ~= "align" then
                op.hf = field(a, PF.none, label)
            end
        elseif v == "bool" then
            op.hf = field(a, PF.bool, label)
        elseif v == "float" then
            op.hf = field(a, PF.float, label)
            op.hf_bits = field(a .. "-bits", PF.uint32, label .. " bits", base.HEX)
        elseif v == "double" then
            op.hf = field(a, PF.double, label)
            op.hf_bits = field(a .. "-bits", PF.uint64, label .. " bits", base.HEX)
        elseif v == "bytes" then
            op.hf = field(a, PF.bytes, label)
        elseif v == "string" then
            op.hf = field(a, PF.string, label)
        else -- uint, int, enum
            local names = op.enum and S.enums[op.enum] or nil
            local b = k == "check" and base.HEX or base.DEC
            if op.wide then
                op.hf = field(a, v == "uint" and PF.uint64 or PF.int64, label, b)
            elseif op.lo >= 0 and op.hi <= UINT32_MAX then
                op.hf = field(a, PF.uint32, label, b, names)
            elseif op.lo >= INT32_MIN and op.hi <= INT32_MAX then
                op.hf = field(a, PF.int32, label, base.DEC, names)
            else
                -- 33 to 52 bits: the value is a number, and Wireshark 4.0
                -- adds only an Int64 to a 64-bit field (a number gives
                -- "calling 'add' on bad self"): read_leaf converts it.
                op.hf = field(a, PF.int64, label, base.DEC)
                op.number64 = true
            end
            if names then
                op.hf_name = field(a .. "-name", PF.string, label .. " name")
            end
        end
    end
end
P.fields = fields
P.experts = expert_list

-- ---- the decoder --------------------------------------------------------------

-- One decode: the packet's bytes (bytes[1] is byte 0), its size in bits,
-- the read position, the slots, and the first failure.
local D = {}

local function fail(kind, bit, why)
    D.failure = {kind = kind, bit = bit, why = why}
    return false
end

local function overflow(n)
    return fail("overflow", D.pos, format("not enough data (%d bits needed, %d left)", n,
                                          D.limit - D.pos))
end

-- n <= 53 bits as a number, nil after a failure.
local function bits(n)
    local pos = D.pos
    if pos + n > D.limit then
        overflow(n)
        return nil
    end
    local B = D.bytes
    local v, got = 0, 0
    local i, off = floor(pos / 8) + 1, pos % 8
    while got < n do
        local take = 8 - off
        if take > n - got then
            take = n - got
        end
        v = v + floor(B[i] / 2 ^ off) % 2 ^ take * 2 ^ got
        got = got + take
        off = 0
        i = i + 1
    end
    D.pos = pos + n
    return v
end

-- n bits, 1..64: a number up to 53 bits, else lo, hi (numbers of 32 and
-- n - 32 bits). All n bits must be there before any is taken.
local function wide_bits(n)
    if n <= 53 then
        return bits(n)
    end
    if D.pos + n > D.limit then
        overflow(n)
        return nil
    end
    local lo = bits(32)
    local hi = bits(n - 32)
    return lo, hi
end

-- int(min, max) on a number range (both ends within 2^52): the value, or
-- nil after a failure.
local function int_range(min, max)
    if min >= max then
        return min
    end
    local at = D.pos
    local span = max - min
    local width = 0
    while 2 ^ width <= span do
        width = width + 1
    end
    local raw = bits(width)
    if raw == nil then
        return nil
    end
    if raw > span then
        fail("range", at, format("raw value above range (expected <= %.0f, got %.0f)", span, raw))
        return nil
    end
    return min + raw
end

-- The same for an op whose range needs 64 bits: op.min64 (and as a
-- UInt64, minu64), op.span64, op.w.
local function int_wide(op)
    local at = D.pos
    if op.w == 0 then
        return op.min64
    end
    local lo, hi = wide_bits(op.w)
    if lo == nil then
        return nil
    end
    local raw = hi and UInt64.new(lo, hi) or UInt64.new(lo)
    if raw > op.span64 then
        fail("range", at, "raw value above range (expected <= " .. tostring(op.span64) ..
                          ", got " .. tostring(raw) .. ")")
        return nil
    end
    return u64_to_i64(op.minu64 + raw)
end

local function align()
    local pad = (8 - D.pos % 8) % 8
    if pad == 0 then
        return true
    end
    local at = D.pos
    local v = bits(pad)
    if v == nil then
        return false
    end
    if v ~= 0 then
        return fail("align", at, "non-zero padding bit")
    end
    return true
end

local function read_check(value)
    if not align() then
        return false
    end
    local at = D.pos
    local got = bits(32)
    if got == nil then
        return false
    end
    if got ~= value then
        return fail("check", at, format("check marker mismatch (expected 0x%08x, got 0x%08x)",
                                        value, got))
    end
    return true
end

-- align, then n bytes: the offset of the first byte, or nil.
local function bytes_view(n)
    if not align() then
        return nil
    end
    local byte = D.pos / 8
    if n > floor(D.limit / 8) - byte then
        overflow(n * 8)
        return nil
    end
    D.pos = D.pos + n * 8
    return byte
end

-- Strict UTF-8 (Unicode table 3-7): the length of the valid prefix.
local function utf8_valid_prefix(B, first, n)
    local i = 0
    while i < n do
        local c = B[first + i]
        if c < 0x80 then
            i = i + 1
        else
            local len, lo, hi = 0, 0x80, 0xBF
            if c >= 0xC2 and c <= 0xDF then
                len = 2
            elseif c >= 0xE0 and c <= 0xEF then
                len = 3
                if c == 0xE0 then lo = 0xA0 elseif c == 0xED then hi = 0x9F end
            elseif c >= 0xF0 and c <= 0xF4 then
                len = 4
                if c == 0xF0 then lo = 0x90 elseif c == 0xF4 then hi = 0x8F end
            else
                return i
            end
            if n - i < len then return i end
            local c1 = B[first + i + 1]
            if c1 < lo or c1 > hi then return i end
            for k = 2, len - 1 do
                local ck = B[first + i + k]
                if ck < 0x80 or ck > 0xBF then return i end
            end
            i = i + len
        end
    end
    return n
end

-- The ladders (lib/relative_tiers.h).
local INT_RELATIVE_TIERS = S.int_relative_tiers
local OBJECT_INDEX_TIERS = S.object_index_tiers

local function read_int_relative(previous)
    local start = D.pos
    for t = 1, #INT_RELATIVE_TIERS do
        local here = bits(1)
        if here == nil then return nil end
        if here == 1 then
            local d = int_range(INT_RELATIVE_TIERS[t][1], INT_RELATIVE_TIERS[t][2])
            if d == nil then return nil end
            if previous + d > INT32_MAX then
                fail("range", start, "value past the 32-bit range")
                return nil
            end
            return previous + d
        end
    end
    local at = D.pos
    local absolute = bits(32)
    if absolute == nil then return nil end
    if absolute > INT32_MAX then
        absolute = absolute - 4294967296
    end
    if absolute <= previous then
        fail("range", at, "value not after previous")
        return nil
    end
    return absolute
end

local function read_object_index(previous, max_objects)
    local start = D.pos
    if max_objects < 1 then
        fail("argument", start, "object index needs max_objects >= 1")
        return nil
    end
    local d
    for t = 1, #OBJECT_INDEX_TIERS do
        local here = bits(1)
        if here == nil then return nil end
        if here == 1 then
            d = int_range(OBJECT_INDEX_TIERS[t][1], OBJECT_INDEX_TIERS[t][2])
            if d == nil then return nil end
            break
        end
    end
    if d == nil then
        local last_max = max_objects + 1
        if last_max < S.object_index_last_min then
            fail("range", start, "object index tier beyond max_objects")
            return nil
        end
        d = int_range(S.object_index_last_min, last_max)
        if d == nil then return nil end
    end
    if previous + d > max_objects then
        fail("range", start, "object index beyond max_objects")
        return nil
    end
    if d > max_objects + 1 then
        fail("range", start, "object index step beyond max_objects + 1")
        return nil
    end
    return previous + d
end

-- ---- the tree -------------------------------------------------------------------

-- The bytes that hold bits [at, at + n) of the packet.
local function range_of(at, n)
    local first = floor(at / 8)
    local last = n > 0 and floor((at + n - 1) / 8) or first - 1
    if first >= D.size then
        first = D.size
        last = first - 1
    end
    if last >= D.size then
        last = D.size - 1
    end
    return D.tvb(first, last - first + 1)
end

-- Texts are only made when someone will read them: Wireshark's first pass,
-- tshark's packet list and display filters need the fields, not their
-- labels (tree.visible is false then), and labels are most of the cost.
local function where(item, at, n)
    if not D.visible then
        return item
    end
    item:append_text(format(" [bit %d, %d bit%s]", at, n, n == 1 and "" or "s"))
    return item
end

-- An item of field f (value v, or the bytes themselves when nil) for
-- bits [at, at + n), its text ending in where the bits are.
local function add(tree, f, at, n, v)
    local item
    if v == nil then
        item = tree:add(f, range_of(at, n))
    else
        item = tree:add(f, range_of(at, n), v)
    end
    return where(item, at, n)
end

-- The same for the bits read since at.
local function add_read(tree, f, at, v)
    return add(tree, f, at, D.pos - at, v)
end

-- An array element's text starts with its index.
local function label(item, op, index)
    if op.element and D.visible then
        item:prepend_text("[" .. index .. "] ")
    end
    return item
end

-- ---- ops ------------------------------------------------------------------------

local ops = S.ops
local run -- forward

local function path_join(path, name)
    if path == "" then
        return name
    end
    return path .. "." .. name
end

-- Where a failure is reported: the field path, and the tree to put the
-- expert item on.
local function failed(tree, path)
    D.fail_path = path
    D.fail_tree = tree
    return false
end

-- A leaf's failure: its name after the container's path (an element's
-- path already names it).
local function leaf_failed(tree, op, path)
    if op.element then
        return failed(tree, path)
    end
    return failed(tree, path_join(path, op.name))
end

local function base_of(op, lo, hi)
    local b
    if op.base_slot then
        b = D.slots[op.base_slot]
    else
        b = op.base
    end
    b = num(b)
    if b < lo or b > hi then
        fail("range", D.pos, "relative base out of range")
        return nil
    end
    return b
end

local function allowed(op, value)
    if not op.allowed then
        return true
    end
    for _, a in ipairs(op.allowed) do
        if type(a) == "number" and type(value) == "number" then
            if a == value then return true end
        elseif I(a) == I(value) then
            return true
        end
    end
    return false
end

-- smallest three (schema_s3_dequantize): the components other than the
-- largest lie in [-limit, limit]; 2 * limit is exact in float32.
local S3_LIMIT = S.s3_limit
local S3_RANGE = 2 * S.s3_limit
local function s3_dequantize(width, raw)
    local steps = f32(2 ^ width - 1)
    return f32(f32(f32(f32(raw) / steps) * S3_RANGE) - S3_LIMIT)
end

-- Reads one leaf: the value shown, the slot value, and extras for the
-- item; nil after a failure.
local function read_value(op)
    local k = op.k
    local at = D.pos
    if k == "bits" then
        local lo, hi = wide_bits(op.w)
        if lo == nil then return nil end
        if op.wide then
            local u = hi and UInt64.new(lo, hi) or UInt64.new(lo)
            return u, u64_to_i64(u)
        end
        return lo, lo
    elseif k == "bool" then
        local b = bits(1)
        if b == nil then return nil end
        return b == 1, b
    elseif k == "int" or k == "enum" then
        local v
        if op.wide then
            v = int_wide(op)
        else
            v = int_range(op.lo, op.hi)
        end
        if v == nil then return nil end
        if k == "enum" then
            local name = S.enums[op.enum][op.wide and tostring(v) or v]
            if name == nil then
                fail("range", at, "value has no name in its enum")
                return nil
            end
            return v, v, name
        end
        return v, v
    elseif k == "float" then
        local u = bits(32)
        if u == nil then return nil end
        return f32_from_bits(u), 0, u
    elseif k == "double" then
        local lo, hi = wide_bits(64)
        if lo == nil then return nil end
        return f64_from_bits(lo, hi), 0, UInt64.new(lo, hi)
    elseif k == "compressed_float" then
        local raw = bits(op.w)
        if raw == nil then return nil end
        if raw > op.steps then
            fail("range", at, format("compressed float above its step count (expected <= %.0f, got %.0f)",
                                     op.steps, raw))
            return nil
        end
        local f = f32(f32(f32(f32(raw) / op.fsteps) * op.delta) + op.fmin)
        return f, 0, f32_bits(f), raw
    elseif k == "bytes" then
        local first = bytes_view(op.w)
        if first == nil then return nil end
        return true, 0, first
    elseif k == "string" then
        local len = int_range(0, op.w - 1)
        if len == nil then return nil end
        local first = bytes_view(len)
        if first == nil then return nil end
        local sat = D.pos - len * 8
        local B = D.bytes
        for i = 1, len do
            if B[first + i] == 0 then
                fail("string", sat, "NUL byte inside string")
                return nil
            end
        end
        if utf8_valid_prefix(B, first + 1, len) ~= len then
            fail("string", sat, "invalid UTF-8 in string")
            return nil
        end
        return D.raw:sub(first + 1, first + len), 0
    elseif k == "align" then
        if not align() then return nil end
        return true, 0
    elseif k == "check" then
        if not read_check(op.check) then return nil end
        return op.check, 0
    elseif k == "int_relative" or k == "object_index" then
        local b = base_of(op, INT32_MIN, INT32_MAX)
        if b == nil then return nil end
        local v
        if k == "int_relative" then
            v = read_int_relative(b)
        else
            v = read_object_index(b, op.max_objects)
        end
        if v == nil then return nil end
        return v, v
    elseif k == "sequence_relative" then
        local b = base_of(op, 0, 65535)
        if b == nil then return nil end
        local v = read_int_relative(b)
        if v == nil then return nil end
        if v >= 65536 then
            v = v - 65536
        end
        if v < 0 or v > 65535 then
            fail("range", at, "not a 16-bit sequence")
            return nil
        end
        return v, v
    elseif k == "ack_relative" then
        local b = base_of(op, 0, 65535)
        if b == nil then return nil end
        local in_range = bits(1)
        if in_range == nil then return nil end
        local v
        if in_range == 1 then
            local d = int_range(1, 64)
            if d == nil then return nil end
            v = (b - d) % 65536
        else
            v = bits(16)
            if v == nil then return nil end
        end
        return v, v
    end
    fail("schema", at, "bad op " .. tostring(k))
    return nil
end

local function read_smallest_three(op, tree, path, index)
    local at = D.pos
    local largest = bits(2)
    if largest == nil then return leaf_failed(tree, op, path) end
    local raw = {}
    for c = 1, 3 do
        raw[c] = bits(op.w)
        if raw[c] == nil then return leaf_failed(tree, op, path) end
    end
    local comp, comp_raw, sum, j = {}, {}, 0, 1
    for c = 0, 3 do
        if c ~= largest then
            comp_raw[c] = raw[j]
            comp[c] = s3_dequantize(op.w, raw[j])
            j = j + 1
            sum = f32(sum + f32(comp[c] * comp[c]))
        end
    end
    comp[largest] = f32(math.sqrt(sum < 1 and f32(1 - sum) or 0))
    local qt = label(add(tree, op.hf, at, D.pos - at, nil), op, index)
    local parts = op.parts
    add(qt, parts[1].hf, at, 2, largest)
    local bit = at + 2
    for c = 0, 3 do
        local part = parts[c + 2]
        if c == largest then
            local item = qt:add(part.hf, range_of(at, 0), comp[c])
            item:set_generated()
            if D.visible then item:append_text(" [derived]") end
            qt:add(part.hf_bits, range_of(at, 0), f32_bits(comp[c])):set_hidden()
        else
            local item = add(qt, part.hf, bit, op.w, comp[c])
            if D.visible then item:append_text(format(" (raw %d)", comp_raw[c])) end
            qt:add(part.hf_bits, range_of(bit, op.w), f32_bits(comp[c])):set_hidden()
            bit = bit + op.w
        end
    end
    return true
end

local function read_leaf(op, tree, path, index)
    if op.k == "smallest_three" then
        return read_smallest_three(op, tree, path, index)
    end
    local at = D.pos
    local v, slot_value, extra, raw = read_value(op)
    if v == nil then
        return leaf_failed(tree, op, path)
    end
    if op.allowed and not allowed(op, slot_value) then
        fail("range", at, "value not allowed by the schema")
        return leaf_failed(tree, op, path)
    end
    if op.slot then
        D.slots[op.slot] = slot_value
    end
    if op.k == "align" then
        if D.pos > at then
            add_read(tree, f_padding, at, nil):set_generated()
        end
        return true
    end
    local item
    if op.k == "bytes" then
        item = where(tree:add(op.hf, D.tvb(extra, op.w)), at, D.pos - at)
    else
        item = add_read(tree, op.hf, at, op.number64 and Int64.new(v) or v)
    end
    label(item, op, index)
    if op.hf_bits then
        tree:add(op.hf_bits, range_of(at, D.pos - at), extra):set_hidden()
        if raw and D.visible then
            item:append_text(format(" (raw %d)", raw))
        end
    elseif op.hf_name then
        tree:add(op.hf_name, range_of(at, D.pos - at), extra):set_hidden()
    end
    return true
end

local function set_slots(list)
    local slots = D.slots
    for i = 1, #list, 2 do
        slots[list[i]] = list[i + 1]
    end
end

local function read_struct(op, tree, path, index)
    local at = D.pos
    local item = tree:add(op.hf, range_of(at, 0))
    if op.element and D.visible then
        item:set_text(op.name_of_array .. "[" .. index .. "]")
    end
    local inner = op.element and path or path_join(path, op.name)
    local ok = run(op.i + 1, op["end"], item, inner)
    item:set_len(floor((D.pos + 7) / 8) - floor(math.min(at, D.limit) / 8))
    where(item, at, D.pos - at)
    return ok
end

local function read_element(arr, tree, path, index)
    local elem = ops[arr.i + 1]
    local epath = path .. "[" .. index .. "]"
    if elem.k == "struct" then
        return read_struct(elem, tree, epath, index)
    end
    return read_leaf(elem, tree, epath, index)
end

local function meta(f, tree, at, v)
    return add_read(tree, f, at, v)
end

local function read_array(op, tree, path)
    local at = D.pos
    local max = op.max
    local count, n = 0, 0
    if op.resets then
        set_slots(op.resets)
    end
    local apath = path_join(path, op.name)
    local kind = op.kind
    if kind == "fixed" or kind == "counted" then
        count = kind == "fixed" and max or num(D.slots[op.count_slot])
        if count < 0 or count > max then
            fail("range", at, format("count above the array's maximum (expected <= %d, got %.0f)",
                                     max, count))
            return failed(tree, apath)
        end
    elseif kind ~= "flags" and kind ~= "sentinel" then
        count = int_range(0, max)
        if count == nil then
            return failed(tree, apath)
        end
    end
    local item = tree:add(op.hf, range_of(at, D.pos - at), count)
    if kind == "fixed" or kind == "counted" then
        item:set_generated()
    end
    local ipath = apath -- the path a failure names, as the reader's is
    local previous = -1
    local ok = true
    if kind == "fixed" or kind == "counted" or kind == "inline" then
        for i = 0, count - 1 do
            ipath = apath .. "[" .. i .. "]"
            if not read_element(op, item, apath, i) then
                ok = false
                break
            end
        end
        n = count
    elseif kind == "flags" then
        for i = 0, max - 1 do
            local bit = D.pos
            local here = bits(1)
            if here == nil then
                ok = failed(item, ipath)
                break
            end
            ipath = apath .. "[" .. i .. "]"
            local present = meta(op.hf_present, item, bit, here == 1)
            if D.visible then present:prepend_text("[" .. i .. "] ") end
            if here == 1 then
                if not read_element(op, item, apath, i) then
                    ok = false
                    break
                end
                n = n + 1
            end
        end
    else
        while true do
            local bit = D.pos
            local index
            if kind == "relative" then
                if n == count then break end
                index = read_object_index(previous, max)
            elseif kind == "indices" then
                if n == count then break end
                index = int_range(0, max - 1)
            else
                index = int_range(0, max)
            end
            if index == nil then
                ok = failed(item, ipath)
                break
            end
            if kind == "sentinel" and index == max then
                local last = meta(op.hf_index, item, bit, index)
                if D.visible then last:append_text(" (end)") end
                break
            end
            if index <= previous or index >= max then
                if index >= max then
                    fail("range", bit, "sparse index beyond the array")
                else
                    fail("range", bit, "sparse index not above the previous one")
                end
                ok = failed(item, ipath)
                break
            end
            ipath = apath .. "[" .. index .. "]"
            meta(op.hf_index, item, bit, index)
            if not read_element(op, item, apath, index) then
                ok = false
                break
            end
            previous = index
            n = n + 1
        end
    end
    if (kind == "flags" or kind == "sentinel") and D.visible then
        item:append_text(format(" (%d element%s)", n, n == 1 and "" or "s"))
    end
    item:set_len(floor((D.pos + 7) / 8) - floor(math.min(at, D.limit) / 8))
    where(item, at, D.pos - at)
    return ok
end

-- The ops [first, last) (1-based indices into S.ops, last excluded).
run = function(first, last, tree, path)
    local i = first
    while i < last do
        local op = ops[i]
        local k = op.k
        if k == "struct" then
            if not read_struct(op, tree, path, nil) then return false end
            i = op["end"]
        elseif k == "array" then
            if not read_array(op, tree, path) then return false end
            i = op["end"]
        elseif k == "if" then
            local taken = op.cond(D.slots, I, ZERO64, ONE64)
            if taken then
                if op.skip_else then set_slots(op.skip_else) end
                if not run(i + 1, op.else_start, tree, path) then return false end
            else
                if op.skip_then then set_slots(op.skip_then) end
                if not run(op.else_start, op["end"], tree, path) then return false end
            end
            i = op["end"]
        else
            if not read_leaf(op, tree, path, nil) then return false end
            i = i + 1
        end
    end
    return true
end

-- ---- one packet -------------------------------------------------------------------

local function report(tree, root)
    local f = D.failure
    if D.fail_path == "" then
        D.fail_path = "packet" -- as bitsift names a failure of the whole packet
    end
    local t = D.fail_tree or root
    local at = f.bit
    local item = t:add(f_error, range_of(at, math.max(0, D.limit - at)), f.kind)
    item:add_proto_expert_info(experts[f.kind] or experts.schema,
                               format("%s at bit %d%s: %s", f.kind, at,
                                      " (" .. D.fail_path .. ")",
                                      f.why))
    t:add(f_error_bit, range_of(at, 0), UInt64.new(at)):set_generated()
    t:add(f_error_field, range_of(at, 0), D.fail_path):set_generated()
end

local function load_bytes(tvb)
    local raw = tvb:raw()
    local bytes = {}
    for i = 1, #raw, 4096 do
        local chunk = {raw:byte(i, math.min(i + 4095, #raw))}
        for j = 1, #chunk do
            bytes[i + j - 1] = chunk[j]
        end
    end
    return raw, bytes
end

-- raw, bytes: the payload when the heuristic has loaded it already.
local function dissect(tvb, pinfo, tree, raw, bytes)
    local size = tvb:captured_len()
    if size < tvb:reported_length_remaining() then
        return 0 -- cut by the snap length: not the datagram the sender wrote
    end
    pinfo.cols.protocol = PNAME
    local root = tree:add(P, tvb())
    D.tvb, D.size = tvb, size
    D.visible = tree.visible
    if raw then
        D.raw, D.bytes = raw, bytes
    else
        D.raw, D.bytes = load_bytes(tvb)
    end
    D.pos, D.limit = 0, size * 8
    local slots = {}
    for i = 1, S.slot_count + 1 do
        slots[i] = 0
    end
    D.slots = slots
    D.failure, D.fail_path, D.fail_tree = nil, "", nil
    local ok = true
    local ptree = root
    local type_name
    repeat
        if S.prefix > 0 then
            if bytes_view(S.prefix) == nil then ok = failed(root, ""); break end
            add_read(root, f_prefix, 0, nil)
        end
        if S.crc then
            local at = D.pos
            local stored = bits(32)
            if stored == nil then ok = failed(root, "crc"); break end
            local item = add_read(root, f_crc, at, stored)
            local computed = packet_crc(D.bytes, size)
            if computed ~= stored then
                fail("crc", at, format("CRC32 mismatch (expected 0x%08x, got 0x%08x)", computed, stored))
                ok = failed(root, "crc")
                break
            end
            item:add(f_crc_ok, range_of(at, 32), true):set_generated()
        end
        local t = 0
        if #S.packets > 1 then
            local at = D.pos
            t = int_range(0, #S.packets - 1)
            if t == nil then ok = failed(root, "type"); break end
            add_read(root, f_type, at, t)
        end
        local pk = S.packets[t + 1]
        type_name = pk.name
        pinfo.cols.info = type_name
        root:append_text(", " .. type_name)
        local at = D.pos
        if pk.hf then
            ptree = root:add(pk.hf, range_of(at, 0))
        else
            ptree = root:add(range_of(at, 0), type_name)
        end
        ok = run(pk.first, pk["end"], ptree, "")
        ptree:set_len(floor((D.pos + 7) / 8) - floor(math.min(at, D.limit) / 8))
        where(ptree, at, D.pos - at)
        if not ok then break end
        if S.end_check then
            local at2 = D.pos
            if not read_check(S.end_check) then ok = failed(root, "end_check"); break end
            add_read(root, f_end, at2, S.end_check)
        end
    until true
    if not ok then
        report(D.fail_tree or root, root)
        pinfo.cols.info = (type_name and type_name .. " " or "") .. "[" .. D.failure.kind ..
                          " at bit " .. D.failure.bit ..
                          " in " .. D.fail_path .. "]"
        root:append_text(" [" .. D.failure.kind .. "]")
    end
    D.bytes, D.raw, D.tvb = nil, nil, nil
    return size
end

function P.dissector(tvb, pinfo, tree)
    return dissect(tvb, pinfo, tree)
end

-- ---- registration -------------------------------------------------------------------

P.prefs.ports = Pref.range("UDP ports", S.ports, "UDP ports of " .. PNAME, 65535)
local udp = DissectorTable.get("udp.port")
udp:add_for_decode_as(P) -- Decode As..., tshark -d udp.port==N,NAME
local registered = S.ports
if registered ~= "" then
    udp:add(registered, P)
end
function P.prefs_changed()
    if P.prefs.ports ~= registered then
        if registered ~= "" then
            udp:remove(registered, P)
        end
        registered = P.prefs.ports
        if registered ~= "" then
            udp:add(registered, P)
        end
    end
end

-- With a CRC, a packet of this protocol is recognised on any port: the
-- CRC seeded with the protocol id is right.
if S.crc then
    P:register_heuristic("udp", function(tvb, pinfo, tree)
        local size = tvb:captured_len()
        if size < S.prefix + 4 or size < tvb:reported_length_remaining() then
            return false
        end
        local raw, bytes = load_bytes(tvb)
        local p = S.prefix
        local stored = bytes[p + 1] + bytes[p + 2] * 256 + bytes[p + 3] * 65536 + bytes[p + 4] * 16777216
        if packet_crc(bytes, size) ~= stored then
            return false
        end
        dissect(tvb, pinfo, tree, raw, bytes)
        return true
    end)
end
