#!/usr/bin/env bash
# Codegen check of the static layouts (crates/cute/src/static_layout.rs):
# compiles crates/cute/examples/codegen.rs to assembly and checks that each static evaluation of
# ((4,8),(8,16)):((8,512),(1,32)) compiles to the same instructions as the hand-written expression
# with constant extents:
#   static_eval_natural vs hand_eval_natural   L(c) at a natural coordinate
#   static_eval_index   vs hand_eval_index     L(i) from a 1-D index (i % 4, i / 4 % 8, ...)
# Function bodies are compared after dropping assembler directives and comments and renaming local
# labels in order of appearance. When LLVM's function merging has already made the static function
# an alias of the hand-written one (identical IR), that counts as identical.
# Exit status: 0 when every pair matches, 1 otherwise (both listings are printed), 2 on a build error.
# Needs only the Rust toolchain (cargo, rustc) and POSIX tools; x86-64 or any other target.
set -euo pipefail
cd "$(dirname "$0")/.."

target_dir="${CARGO_TARGET_DIR:-target}"
examples="$target_dir/release/examples"
rm -f "$examples"/codegen-*.s
touch crates/cute/examples/codegen.rs # so that cargo runs rustc again and the assembly is written
# One module, no LTO, no debug info: the functions as compiled, without .loc noise. Only the example
# is compiled with these flags; the library is the one `cargo build --release` made.
if ! cargo rustc --quiet --release -p cute --example codegen -- --emit asm -C lto=off -C debuginfo=0; then
    echo "check_codegen: build failed" >&2
    exit 2
fi
asm=$(ls -t "$examples"/codegen-*.s 2>/dev/null | head -n 1 || true)
if [ -z "$asm" ]; then
    echo "check_codegen: no assembly under $examples" >&2
    exit 2
fi

# The body of function $1: the lines between its label and its .size directive, without
# directives, comments and blank lines, local labels renamed .L0, .L1, ... in order of appearance.
body() {
    awk -v f="$1" '
        $0 == f ":" { on = 1; next }
        on && $1 == ".size" { exit }
        on {
            sub(/#.*/, "")
            if ($0 ~ /^[ \t]*$/) next
            if ($0 ~ /^\.Lfunc_end[0-9]*:/) next
            if ($0 ~ /^[ \t]*\.[a-z_]+([ \t]|$)/) next   # a directive
            line = $0
            out = ""
            while (match(line, /\.L[A-Za-z0-9_.$]+/)) {
                name = substr(line, RSTART, RLENGTH)
                if (!(name in id)) id[name] = ".L" n++
                out = out substr(line, 1, RSTART - 1) id[name]
                line = substr(line, RSTART + RLENGTH)
            }
            text = out line
            gsub(/[ \t]+/, " ", text)
            print text
        }
    ' "$asm"
}

# True when $1 is defined as an alias of $2 (`a = b` or `.set a, b`).
alias_of() {
    grep -Eq "^[[:space:]]*($1[[:space:]]*=[[:space:]]*$2|\.set[[:space:]]+$1,[[:space:]]*$2)[[:space:]]*\$" "$asm"
}

status=0
for what in natural index; do
    s="static_eval_$what"
    h="hand_eval_$what"
    if alias_of "$s" "$h"; then
        echo "ok   $s = $h (LLVM merged them: identical IR)"
        body "$h" | sed 's/^/       /'
        continue
    fi
    bs=$(body "$s")
    bh=$(body "$h")
    if [ -z "$bs" ] || [ -z "$bh" ]; then
        echo "FAIL $s / $h: a function is missing from $asm"
        status=1
    elif [ "$bs" = "$bh" ]; then
        echo "ok   $s and $h: the same $(printf '%s\n' "$bs" | wc -l | tr -d ' ') instructions"
        printf '%s\n' "$bs" | sed 's/^/       /'
    else
        echo "FAIL $s and $h differ"
        echo "--- $s"
        printf '%s\n' "$bs"
        echo "--- $h"
        printf '%s\n' "$bh"
        status=1
    fi
done
exit $status
