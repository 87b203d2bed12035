#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The .deb in a clean Debian 12 root, as docs/packaging.md describes: installs it with apt, runs
# pinscope-cli from /tmp, draws the window offscreen, checks the desktop entry's Exec, then removes
# the package and lists what is left. Run as root (debootstrap and chroot need it):
#   tests/install/deb-in-clean-root.sh build/package/pinscope_0.1.0_amd64.deb /var/tmp/bookworm [DISPLAY]
# ROOT is made with `debootstrap --variant=minbase bookworm ROOT` when it does not exist. With
# DISPLAY (an X server whose socket is in /tmp/.X11-unix), the desktop entry's command is also
# started on it for 8 s, for a screenshot from outside.
set -euo pipefail
deb=$(readlink -f "$1")
root=$2
display=${3:-}
[ -f "$deb" ] || { echo "no such package: $1" >&2; exit 2; }
if [ ! -d "$root" ]; then
    debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian
fi
mounted=()
cleanup() { for ((i=${#mounted[@]}-1; i>=0; i--)); do umount "${mounted[i]}" || true; done; }
trap cleanup EXIT
mount_in() { mkdir -p "$root$2"; mount "${@:3}" "$1" "$root$2"; mounted+=("$root$2"); }
mount_in proc /proc -t proc
mount_in sysfs /sys -t sysfs
mount_in /dev /dev --bind
[ -z "$display" ] || mount_in /tmp/.X11-unix /tmp/.X11-unix --bind
cp "$deb" "$root/root/"
name=$(basename "$deb")

chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root DISPLAY="$display" NAME="$name" \
    /bin/bash -euo pipefail -c '
step() { echo; echo "== $*"; }
step "before: is anything of pinscope here?"
find / -xdev \( -iname "*pinscope*" -o -name "org.pinscope.*" \) -not -path "/root/*" | sort
dpkg-query -W -f="\${binary:Package}\n" | sort > /root/packages-before.txt
step "apt install ./$NAME"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -q "./root/$NAME" 2>&1 | tail -n 4
step "the package declares"
dpkg-deb -f "/root/$NAME" Depends Recommends Suggests
dpkg -L pinscope | sort > /root/pinscope-files.txt
step "dpkg -L pinscope ($(wc -l < /root/pinscope-files.txt) paths)"
cat /root/pinscope-files.txt
step "pinscope-cli run --seconds 1, from /tmp"
cd /tmp && pinscope-cli run --seconds 1 --no-advice | head -n 6
step "pinscope --version; man -w pinscope-cli"
pinscope --version
ls -l /usr/share/man/man1/pinscope*.1.gz
step "the window, offscreen, from /tmp"
cd /tmp && QT_QPA_PLATFORM=offscreen pinscope --screenshot /tmp/window.png --after 2 && ls -l /tmp/window.png
step "the desktop entry: Exec and Icon resolve"
entry=/usr/share/applications/org.pinscope.pinscope.desktop
exec_line=$(sed -n "s/^Exec=//p" "$entry")
program=${exec_line%% *}
echo "Exec=$exec_line -> $(command -v "$program")"
icon=$(sed -n "s/^Icon=//p" "$entry")
ls /usr/share/icons/hicolor/*/apps/"$icon".* | head -n 3
if [ -n "$DISPLAY" ]; then
    step "the command of the desktop entry, on $DISPLAY for 8 s"
    cmd=${exec_line// %f/}
    (cd /tmp && exec $cmd > /tmp/window.log 2>&1) & pid=$!
    sleep 8
    if kill -0 "$pid" 2>/dev/null; then echo "the window was still up after 8 s"; kill "$pid"; else echo "it exited early:"; fi
    wait "$pid" || true
    cat /tmp/window.log
fi
step "apt remove pinscope"
DEBIAN_FRONTEND=noninteractive apt-get remove -y -q pinscope 2>&1 | tail -n 2
step "after: what is left of the package files"
left=0
while read -r path; do
    [ -e "$path" ] || continue
    # Folders other packages share (/usr/share/icons/hicolor/16x16/apps...) stay; files must not.
    if [ -d "$path" ] && ! [ "$path" -ef /usr/share/pinscope ] && [ -n "$(dpkg -S "$path" 2>/dev/null)" ]; then continue; fi
    echo "left: $path"; left=$((left + 1))
done < /root/pinscope-files.txt
echo "$left of $(wc -l < /root/pinscope-files.txt) paths left"
find / -xdev \( -iname "*pinscope*" -o -name "org.pinscope.*" \) -not -path "/root/*" -not -path "/tmp/*" | sort
dpkg -l pinscope 2>/dev/null | tail -n 1 || echo "dpkg knows no pinscope"
[ "$left" -eq 0 ]
'
