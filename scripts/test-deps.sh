# Sourced by scripts/test.sh: the Debian packages the tests need, installed when missing (CI runs
# on a fresh machine). Each entry: a command or file that proves the package is there, and the
# package. Installing needs root (CI and these machines run as root) and takes a minute once.
TEST_PACKAGES=(
  "/usr/bin/chromium chromium"                                   # sign-in pages in a real browser (test/oauth)
  "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf fonts-dejavu-core" # text in rendered images
  "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf fonts-ipafont-gothic" # Japanese screens for OCR (test/fotos)
  "/usr/bin/tesseract tesseract-ocr"                             # the independent OCR that checks redactions (test/fotos/redact*)
  "/usr/share/tesseract-ocr/5/tessdata/eng.traineddata tesseract-ocr-eng"
)
missing=()
for entry in "${TEST_PACKAGES[@]}"; do
  read -r probe pkg <<<"$entry"
  [ -e "$probe" ] || command -v "$probe" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    say "installing Debian packages the tests need: ${missing[*]}"
    apt-get update -qq >/dev/null 2>&1 || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    say "missing Debian packages (install them, then run again): ${missing[*]}"
  fi
fi
