#!/bin/sh
# `make install`, `make uninstall` and `make refresh-caches`: sh packaging/install.sh install|uninstall|refresh,
# with PREFIX, DESTDIR, STAGE, BIN, METAINFO, ICON_SIZES and MAN_PAGES from the Makefile. Plain POSIX sh:
# installing needs nothing that make does not.
#
# `install` writes a manifest, PREFIX/share/quicksilver/install-manifest, of exactly what it made, one
# line each, final paths (without DESTDIR):
#   f PATH   a file it installed
#   c PATH   a cache file its cache refresh created (one that was not there before)
#   d PATH   a folder it created (one that was not there before)
# Installing again (an upgrade) keeps the c and d lines of the manifest it finds, and removes the
# files the last install made that this one does not. `uninstall` removes the f files, refreshes the
# caches (so they no longer list Quicksilver), removes the c files of a cache that now describes
# nothing else, the manifest, and then the d folders that are empty, deepest first. Without a manifest
# (an install by an older version) it removes the files of entries() by name, and says so.
set -u
export LC_ALL=C

cmd=${1:-}
me="make $cmd"
fail() { echo "$me: $*" >&2; exit 1; }

DESTDIR=${DESTDIR-}
PREFIX=${PREFIX-}
case $PREFIX in /*) ;; *) fail "PREFIX must be an absolute path, not '$PREFIX'" ;; esac
while :; do case $PREFIX in */) PREFIX=${PREFIX%/} ;; *) break ;; esac; done
root=$DESTDIR$PREFIX
MANIFEST=share/quicksilver/install-manifest

tmp=$(mktemp -d) || fail "cannot make a temporary folder"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

# What is installed, one a line: mode, source, path under PREFIX. An uninstall without a manifest
# removes these by name (no pattern that could match a file of the user's).
entries() {
	echo "755 $BIN bin/quicksilver"
	echo "644 packaging/quicksilver.desktop share/applications/quicksilver.desktop"
	echo "644 packaging/quicksilver-session.xml share/mime/packages/quicksilver-session.xml"
	echo "644 packaging/$METAINFO share/metainfo/$METAINFO"
	echo "644 packaging/quicksilver.svg share/icons/hicolor/scalable/apps/quicksilver.svg"
	for s in $ICON_SIZES; do echo "644 packaging/icons/${s}x$s.png share/icons/hicolor/${s}x$s/apps/quicksilver.png"; done
	for p in $MAN_PAGES; do echo "644 $STAGE/man1/$p.1 share/man/man1/$p.1"; done
	echo "644 $STAGE/quicksilver.bash share/bash-completion/completions/quicksilver"
	echo "644 $STAGE/_quicksilver share/zsh/site-functions/_quicksilver"
	echo "644 $STAGE/quicksilver.fish share/fish/vendor_completions.d/quicksilver.fish"
}

# The desktop's caches under PREFIX, where their tools are (a desktop has them; a server need not).
# A tool that fails is one line, and not fatal: the files are in place without it.
refresh() {
	if [ -d "$root/share/mime/packages" ] && command -v update-mime-database >/dev/null; then
		tool update-mime-database "$root/share/mime"
	fi
	if [ -d "$root/share/applications" ] && command -v update-desktop-database >/dev/null; then
		tool update-desktop-database -q "$root/share/applications"
	fi
	if [ -f "$root/share/icons/hicolor/index.theme" ] && command -v gtk-update-icon-cache >/dev/null; then
		tool gtk-update-icon-cache -q -f "$root/share/icons/hicolor"
	fi
}
tool() {
	out=$("$@" 2>&1) || echo "$me: $1 failed, its cache may be stale: $(printf '%s\n' "$out" | grep . | tail -n 1)" >&2
}

# The folders and files that make up the caches refresh() writes, as "d PATH" and "c PATH" lines.
caches() {
	for x in "$root/share/mime" "$root/share/applications/mimeinfo.cache" "$root/share/icons/hicolor/icon-theme.cache"; do
		[ -e "$x" ] || continue
		find "$x" -type d | sed 's/^/d /'
		find "$x" ! -type d | sed 's/^/c /'
	done | sort
}

# Whether the cache file PATH (c line) now describes nothing but Quicksilver, which is gone.
describes_nothing_else() {
	case $1 in
	"$PREFIX"/share/mime/*)
		set -- "$root/share/mime/packages"/*.xml
		[ ! -e "$1" ] ;;
	"$PREFIX"/share/applications/mimeinfo.cache)
		! grep -qv -e '^\[MIME Cache\]$' -e '^[[:space:]]*$' "$DESTDIR$1" 2>/dev/null ;;
	"$PREFIX"/share/icons/hicolor/icon-theme.cache)
		[ -z "$(find "$root/share/icons/hicolor" -type f ! -name index.theme ! -name icon-theme.cache | head -n 1)" ] ;;
	*) false ;;
	esac
}

# The lines of a manifest, each checked to name a path of this install: f and c lines under PREFIX,
# d lines under it or PREFIX itself or a folder above it; no "." or ".." (a damaged manifest changes nothing).
read_manifest() {
	grep -E '^[fcd] ' "$1" > "$tmp/lines" || :
	while read -r t p; do
		case $p in /*) ;; *) fail "$1 names '$p', not an absolute path: changed nothing" ;; esac
		case $p/ in */./* | */../* | *//*) fail "$1 names '$p': changed nothing" ;; esac
		case $t:$p/ in [fc]:"$PREFIX"/?* | d:"$PREFIX"/*) ;;
		*) case $PREFIX/ in "$p"/*) [ "$t" = d ] || fail "$1 names '$p', outside $PREFIX: changed nothing" ;;
		   *) fail "$1 names '$p', outside $PREFIX: changed nothing" ;; esac ;;
		esac
	done < "$tmp/lines"
	cat "$tmp/lines"
}

# Whether PREFIX/share is where desktops look (XDG_DATA_HOME, XDG_DATA_DIRS).
searched() {
	dirs="${XDG_DATA_HOME:-${HOME-}/.local/share}:${XDG_DATA_DIRS:-/usr/local/share:/usr/share}"
	case ":$dirs:" in *":$PREFIX/share:"* | *":$PREFIX/share/:"*) return 0 ;; esac
	return 1
}

do_install() {
	[ -n "${BIN-}" ] && [ -n "${STAGE-}" ] && [ -n "${METAINFO-}" ] && [ -n "${ICON_SIZES-}" ] && [ -n "${MAN_PAGES-}" ] ||
		fail "run it through make (BIN, STAGE, METAINFO, ICON_SIZES and MAN_PAGES unset)"
	# The man pages are those MAN_PAGES names, which the fallback of uninstall removes by name.
	staged=$(cd "$STAGE/man1" 2>/dev/null && ls | sed -n 's/\.1$//p' | sort | tr '\n' ' ')
	want=$(printf '%s\n' $MAN_PAGES | sort | tr '\n' ' ')
	[ "$staged" = "$want" ] || fail "the man pages staged ($staged) are not MAN_PAGES in the Makefile ($want)"
	entries > "$tmp/entries"
	while read -r mode src dest; do
		[ -f "$src" ] || fail "$src is missing (make stage makes it)"
	done < "$tmp/entries"

	old=$tmp/old
	: > "$old"
	if [ -f "$root/$MANIFEST" ]; then read_manifest "$root/$MANIFEST" > "$old" || exit 1; fi

	# The folders this install is to create: each missing one above a file it installs.
	{ cut -d' ' -f3 "$tmp/entries"; echo "$MANIFEST"; } | while read -r dest; do
		d=$PREFIX/$dest
		d=${d%/*}
		while [ -n "$d" ] && [ ! -d "$DESTDIR$d" ]; do echo "d $d"; d=${d%/*}; done
	done > "$tmp/new"
	[ -n "$DESTDIR" ] || caches > "$tmp/caches-before"

	: > "$tmp/f"
	failed=
	while read -r mode src dest; do
		strip=
		[ "$dest" = bin/quicksilver ] && strip=-s
		if ! err=$(install -D -m "$mode" $strip "$src" "$root/$dest" 2>&1); then
			failed=$err
			break
		fi
		echo "f $PREFIX/$dest" >> "$tmp/f"
	done < "$tmp/entries"

	if [ -z "$failed" ]; then
		# An upgrade: what the last install had and this one has not goes, and its folders if empty.
		grep '^f ' "$old" | sort > "$tmp/old-f" || :
		sort "$tmp/f" | comm -23 "$tmp/old-f" - > "$tmp/stale"
		if [ -s "$tmp/stale" ]; then
			while read -r t p; do rm -f "$DESTDIR$p"; done < "$tmp/stale"
			grep '^d ' "$old" | sort -r | while read -r t p; do rmdir "$DESTDIR$p" 2>/dev/null; done
		fi
		# The cache refresh (not for a staged tree: the package's own scripts do it where it lands), and
		# what it created: the files and folders that were not there, except those just installed.
		if [ -z "$DESTDIR" ]; then
			refresh
			sed 's/^f /c /' "$tmp/f" > "$tmp/fc"
			caches | comm -13 "$tmp/caches-before" - | grep -vxF -f "$tmp/fc" >> "$tmp/new" || :
		fi
	fi

	# The manifest: the files installed, and the caches and folders this install and the last made
	# that are there. A failed install writes one too, so that uninstall takes away what it did.
	{
		echo "# Quicksilver's install manifest: what \`make install\` made under $PREFIX, which \`make uninstall\`"
		echo "# takes away. f: a file installed; c: a cache file the cache refresh created; d: a folder created."
		cat "$tmp/f"
		# A failed upgrade: the last install's files this one did not get to are still there.
		[ -z "$failed" ] || { grep '^f ' "$old" | grep -vxF -f "$tmp/f" || :; }
		cat "$tmp/new" "$old" | grep -E '^[cd] ' | sort -u | while read -r t p; do
			case $t in
			c) [ -f "$DESTDIR$p" ] && echo "c $p" ;;
			d) [ -d "$DESTDIR$p" ] || [ "$p" = "$PREFIX/${MANIFEST%/*}" ] && echo "d $p" ;;
			esac
		done
	} > "$tmp/manifest"
	if [ -s "$tmp/f" ]; then
		err=$(install -D -m 644 "$tmp/manifest" "$root/$MANIFEST" 2>&1) || fail "$err"
	fi
	[ -z "$failed" ] || fail "$failed"

	upgraded=
	[ -s "$old" ] && upgraded=" (replacing the install that was there)"
	echo "installed into $root$upgraded: $(grep -c '^f ' "$tmp/manifest") files, listed in $root/$MANIFEST"
	if [ -z "$DESTDIR" ] && ! searched; then
		echo "note: $PREFIX/share is in neither XDG_DATA_HOME nor XDG_DATA_DIRS: menus and file managers will not look there"
	fi
}

do_uninstall() {
	if [ ! -f "$root/$MANIFEST" ]; then
		# An install by an older version, which wrote no manifest: its files by name.
		[ -n "${BIN-}" ] && [ -n "${METAINFO-}" ] && [ -n "${ICON_SIZES-}" ] && [ -n "${MAN_PAGES-}" ] ||
			fail "run it through make (BIN, METAINFO, ICON_SIZES and MAN_PAGES unset)"
		n=0
		entries > "$tmp/entries"
		while read -r mode src dest; do
			[ -e "$root/$dest" ] || [ -L "$root/$dest" ] || continue
			err=$(rm -f "$root/$dest" 2>&1) || fail "$err"
			n=$((n + 1))
		done < "$tmp/entries"
		if [ "$n" = 0 ]; then
			echo "nothing to uninstall in $root"
			return
		fi
		[ -n "$DESTDIR" ] || refresh
		echo "uninstalled from $root: $n files by name, as there was no $MANIFEST (an install by an older version): the folders and caches it made are left"
		return
	fi

	read_manifest "$root/$MANIFEST" > "$tmp/m" || exit 1
	n=0
	while read -r t p; do
		[ "$t" = f ] || continue
		[ -e "$DESTDIR$p" ] || [ -L "$DESTDIR$p" ] || continue
		err=$(rm -f "$DESTDIR$p" 2>&1) || fail "$err"
		n=$((n + 1))
	done < "$tmp/m"
	# The refresh, and what it creates (as when the install failed before its own) is this uninstall's.
	if [ -z "$DESTDIR" ]; then
		caches > "$tmp/caches-before"
		refresh
		caches | comm -13 "$tmp/caches-before" - >> "$tmp/m"
	fi
	caches=0
	while read -r t p; do
		[ "$t" = c ] && [ -e "$DESTDIR$p" ] && describes_nothing_else "$p" || continue
		rm -f "$DESTDIR$p" && caches=$((caches + 1))
	done < "$tmp/m"
	err=$(rm -f "$root/$MANIFEST" 2>&1) || fail "$err"
	folders=0
	grep '^d ' "$tmp/m" | sort -r > "$tmp/d" || :
	while read -r t p; do
		[ -d "$DESTDIR$p" ] && rmdir "$DESTDIR$p" 2>/dev/null && folders=$((folders + 1))
	done < "$tmp/d"
	echo "uninstalled from $root: $n files, $caches cache files, $folders folders"
}

case $cmd in
install) do_install ;;
uninstall) do_uninstall ;;
refresh) refresh ;;
*) echo "usage: sh packaging/install.sh install|uninstall|refresh (with PREFIX and DESTDIR)" >&2; exit 2 ;;
esac
