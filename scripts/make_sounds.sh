#!/usr/bin/env bash
# Make the companion's built-in sounds (hardware/sounds/*.ogg) from nothing but espeak-ng and sox.
# Everything here is synthesised, so the files are the project's own work.
# Needs: apt-get install -y espeak-ng sox libsox-fmt-all
# Run from anywhere: scripts/make_sounds.sh (rewrites the committed files; the output is
# repeatable with the same sox and espeak-ng versions: sox -R fixes its noise seed)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
out="$here/hardware/sounds"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
rate=22050
sx() { sox -R -q "$@"; }   # -R: repeatable noise; -q: quiet

# --- drum voices (mono, 22.05 kHz) ------------------------------------------------------------
# kick: a fast falling sine with a click; snare: band-passed noise over a short tone;
# hat: high-passed noise tick; tom: a slower falling sine.
sx -n -r $rate -c 1 "$tmp/kick.wav"  synth 0.28 sine 160:45 fade q 0.002 0.28 0.22 gain -2
sx -n -r $rate -c 1 "$tmp/snare_n.wav" synth 0.18 whitenoise bandpass 1800 1.2q fade q 0.001 0.18 0.16
sx -n -r $rate -c 1 "$tmp/snare_t.wav" synth 0.10 sine 210:180 fade q 0.001 0.10 0.08
sx -m "$tmp/snare_n.wav" "$tmp/snare_t.wav" "$tmp/snare.wav" gain -3
sx -n -r $rate -c 1 "$tmp/hat.wav"   synth 0.05 whitenoise gain -9 highpass 7000 fade q 0.001 0.05 0.04
sx -n -r $rate -c 1 "$tmp/tom.wav"   synth 0.35 sine 120:70 fade q 0.002 0.35 0.3 gain -4

# --- pattern: 4 bars of 4/4 at 124 bpm, sixteenth-note grid -----------------------------------
bpm=124
step=$(python3 -c "print(60/$bpm/4)")        # seconds per sixteenth
bar_steps=16; bars=4; total_steps=$((bar_steps*bars))
length=$(python3 -c "print($step*$total_steps)")
# One string per voice: x = hit on that sixteenth. Bar 4 ends with a tom fill.
kick="x.....x...x.....x.....x...x.x...x.....x...x.....x.....x.x.x...."
snr="....x.......x.......x.......x.......x.......x.......x.....x.x.xx"
hat="x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x.x."
tom="....................................................x.x.x.x....."
layer() {  # layer VOICE PATTERN -> $tmp/VOICE_track.wav: the voice placed at every x
    local voice=$1 pat=$2 files=() i=0
    for ((i=0; i<${#pat}; i++)); do
        [ "${pat:$i:1}" = x ] || continue
        local at; at=$(python3 -c "print(round($i*$step, 5))")
        sx "$tmp/$voice.wav" "$tmp/${voice}_$i.wav" pad "$at" 0
        files+=("$tmp/${voice}_$i.wav")
    done
    # mixed over exactly one pattern of silence, so every track has the loop's length
    sx -m "$tmp/silence.wav" "${files[@]}" "$tmp/${voice}_track.wav" trim 0 "$length"
}
sx -n -r $rate -c 1 "$tmp/silence.wav" trim 0 "$length"
layer kick "$kick"; layer snare "$snr"; layer hat "$hat"; layer tom "$tom"
sx -m -v 1 "$tmp/kick_track.wav" -v 0.8 "$tmp/snare_track.wav" -v 0.7 "$tmp/hat_track.wav" \
    -v 0.9 "$tmp/tom_track.wav" "$tmp/loop.wav" norm -1
sx "$tmp/loop.wav" -C 2 "$out/drum_loop.ogg"

# --- announcer: espeak-ng voice, pitched down, with an arena echo ------------------------------
say() {  # say NAME TEXT
    espeak-ng -v en+m3 -s 135 -p 35 -a 180 -w "$tmp/$1_raw.wav" "$2"
    sx "$tmp/$1_raw.wav" -r $rate -c 1 "$tmp/$1.wav" pitch -250 overdrive 4 gain -6 \
        pad 0.05 0.3 reverb 35 60 80 norm -1
    sx "$tmp/$1.wav" -C 3 "$out/$1.ogg"
}
say yarra_mark "Yarra Mark!"
say yarra_bung "Yarra Bung!"
say one_minute "One minute!"
say ten_seconds "Ten seconds!"

# --- effects ------------------------------------------------------------------------------------
# hit: a punchy thump under a short noise crack
sx -n -r $rate -c 1 "$tmp/hit_a.wav" synth 0.22 sine 220:60 fade q 0.001 0.22 0.18
sx -n -r $rate -c 1 "$tmp/hit_b.wav" synth 0.08 pinknoise lowpass 4000 fade q 0.001 0.08 0.07
sx -m "$tmp/hit_a.wav" "$tmp/hit_b.wav" "$tmp/hit.wav" norm -1
sx "$tmp/hit.wav" -C 3 "$out/hit.ogg"
# knockout: a falling square-wave siren into a long boom
sx -n -r $rate -c 1 "$tmp/ko_a.wav" synth 0.7 square 880:110 gain -10 lowpass 3000 fade q 0.005 0.7 0.2
sx -n -r $rate -c 1 "$tmp/ko_b.wav" synth 0.9 sine 90:30 fade q 0.002 0.9 0.7
sx "$tmp/ko_b.wav" "$tmp/ko_b2.wav" pad 0.55 0
sx -m "$tmp/ko_a.wav" "$tmp/ko_b2.wav" "$tmp/ko.wav" gain -4 reverb 30 norm -1
sx "$tmp/ko.wav" -C 3 "$out/knockout.ogg"

ls -l "$out"
