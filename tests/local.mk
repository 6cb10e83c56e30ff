# tests/: the end-to-end tests of the command line itself.  Each module's
# local.mk adds its own unit and end-to-end tests.
TESTS += tests/e2e/t0000-cli.sh tests/e2e/t0010-layout.sh tests/e2e/t0390-privilege-modifiers.sh
EXTRA_DIST += tests/e2e/t0000-cli.sh tests/e2e/t0010-layout.sh tests/e2e/t0390-privilege-modifiers.sh
