#!/usr/bin/env bash
# Regenerates test/fixtures/crypto/*.pdf: one tiny hand-written PDF encrypted by qpdf with every Standard
# security handler revision the analyzer supports. Needs qpdf (tested with 11.3). R5/R6 files get random salts,
# so re-running changes their bytes but not what test/crypto.test.ts asserts.
set -euo pipefail
cd "$(dirname "$0")/../test/fixtures/crypto"

content='BT /F1 12 Tf 72 712 Td (Hello) Tj ET'
xmp='<x:xmpmeta xmlns:x="adobe:ns:meta/">Crypto Fixture</x:xmpmeta>'
objs=(
  '<< /Type /Catalog /Pages 2 0 R /Metadata 6 0 R >>'
  '<< /Type /Pages /Kids [3 0 R] /Count 1 >>'
  '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>'
  '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'
  "<< /Length ${#content} >>
stream
${content}
endstream"
  "<< /Type /Metadata /Subtype /XML /Length ${#xmp} >>
stream
${xmp}
endstream"
  '<< /Title (Crypto Test) /Producer (make-crypto-fixtures) >>'
)
{
  printf '%%PDF-1.7\n'
  offsets=()
  pos=9
  for i in "${!objs[@]}"; do
    offsets+=("$pos")
    chunk="$((i + 1)) 0 obj
${objs[$i]}
endobj
"
    printf '%s' "$chunk"
    pos=$((pos + ${#chunk}))
  done
  printf 'xref\n0 %d\n0000000000 65535 f \n' $((${#objs[@]} + 1))
  for o in "${offsets[@]}"; do printf '%010d 00000 n \n' "$o"; done
  printf 'trailer\n<< /Size %d /Root 1 0 R /Info 7 0 R >>\nstartxref\n%d\n%%%%EOF\n' $((${#objs[@]} + 1)) "$pos"
} > plain.pdf
qpdf --check plain.pdf > /dev/null

# Keep objects and streams where the test's small regex reader can find them.
layout=(--object-streams=disable --stream-data=uncompress --compress-streams=n --static-id --allow-weak-crypto)
enc() { local out=$1; shift; qpdf "${layout[@]}" --encrypt "$@" -- plain.pdf "$out"; }

enc r2-rc4-40.pdf '' owner 40
enc r3-rc4-128.pdf '' owner 128 --use-aes=n
enc r4-rc4-128.pdf '' owner 128 --use-aes=n --force-V4
enc r4-aes-128.pdf '' owner 128 --use-aes=y
enc r4-aes-128-cleartext-metadata.pdf '' owner 128 --use-aes=y --cleartext-metadata
enc r5-aes-256.pdf '' owner 256 --force-R5
enc r6-aes-256.pdf '' owner 256
enc r6-aes-256-cleartext-metadata.pdf '' owner 256 --cleartext-metadata
# a real user password: opening needs "secret" (as user) or "owner" (as owner)
enc r2-rc4-40-user.pdf secret owner 40
enc r3-rc4-128-user.pdf secret owner 128 --use-aes=n
enc r4-aes-128-user.pdf secret owner 128 --use-aes=y
enc r5-aes-256-user.pdf secret owner 256 --force-R5
enc r6-aes-256-user.pdf secret owner 256
ls -l *.pdf
