#!/bin/sh
# Makes a small book with the contactsbook executable BIN, as a person would: an import, contacts
# added and edited through the form, one deleted. Each step is a run of its own (so a journal, in
# versions that keep one, holds one change set per step). Usage: [SYNC_URL=URL] [DIRECTORIES=1] [WITH_GROUPS=1] make-book.sh BIN BOOK
set -eu
BIN=$1 BOOK=$2
HERE=$(cd "$(dirname "$0")" && pwd)
# Versions from issue 19 on make a new --db only with --create.
CREATE=""
if "$BIN" --help 2>&1 | grep -q -- '--create'; then CREATE="--create"; fi
step() { printf '%b' "$1" | "$BIN" --db "$BOOK" $CREATE >>"$BOOK.log" 2>&1; }

"$BIN" import --db "$BOOK" $CREATE "$HERE/cards.vcf" >>"$BOOK.log" 2>&1
step 'add\ngiven Ann\nfamily Lee\nnickname Annie\norganization Acme\ntitle Engineer\nemail work ann.lee42@example.org\nphone mobile +1 555 123 4567\naddress home 12 Elm St; Springfield; IL; 62701; USA\nbirthday 1990-05-17\ntag friends\nnotes met at the conference\nsave\n'
step 'add\ngiven José\nfamily Núñez\nemail home jose@ejemplo.es\nphone work +34 912 345 678\naddress work Calle Mayor 5; Madrid; ; 28013; Spain\nbirthday --07-04\ntag familia\nsave\n'
step 'add\ngiven Ludwig\nfamily van Beethoven\nemail ludwig@example.org\nnotes composer\nsave\n'
step 'add\ngiven 太郎\nfamily 山田\nemail taro@example.jp\nsave\n'
step 'add\ngiven Mary\nfamily Kowalczyk\nemail marykowalczyk@example.org\nphone home 555-000-1111\ntag work\nsave\n'
step 'add\ngiven Bob\nfamily Stone\nemail bob@stone.example\nphone mobile +1 555 987 6543\nsave\n'
# A CardDAV account (versions with sync), the contacts sent to it before the edits below.
if [ -n "${SYNC_URL:-}" ]; then
    "$BIN" account add home "$SYNC_URL" --user user --db "$BOOK" >>"$BOOK.log" 2>&1
    "$BIN" sync --db "$BOOK" >>"$BOOK.log" 2>&1
fi
# Two directories (versions with them, DIRECTORIES=1): before the migration `add directory sources`,
# the first `directory add` made their table.
if [ -n "${DIRECTORIES:-}" ]; then
    "$BIN" directory add corp ldaps://ldap.example.org/ou=people,dc=example,dc=org --db "$BOOK" >>"$BOOK.log" 2>&1
    "$BIN" directory add ad ldap://dc1.example.org/dc=example,dc=org --bind-dn 'cn=reader,ou=service,dc=example,dc=org' \
        --password-command 'pass show ldap/reader' --size-limit 20 --time-limit 1.5 --db "$BOOK" >>"$BOOK.log" 2>&1
fi
# Groups (versions with them, WITH_GROUPS=1): a vCard 4.0 group and an Apple 3.0 one imported (members
# by `urn:uuid:` and without), one made here with members added by name, Bob in two of them
# before his deletion below, and one member removed (its change set the last of the groups').
if [ -n "${WITH_GROUPS:-}" ]; then
    "$BIN" import --db "$BOOK" "$HERE/groups.vcf" >>"$BOOK.log" 2>&1
    "$BIN" group new Friends --db "$BOOK" >>"$BOOK.log" 2>&1
    "$BIN" group add Friends 'ann lee' 'jose' 'bob stone' 'mary' --db "$BOOK" >>"$BOOK.log" 2>&1
    "$BIN" group remove Friends mary --db "$BOOK" >>"$BOOK.log" 2>&1
fi
step 'show ann lee\nedit\norganization Acme Corp\ntag vip\nsave\n'
step 'show mary kowalczyk\nedit\nphone work 555-000-2222\nsave\n'
step 'delete bob stone\n'
