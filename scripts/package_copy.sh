# Sourced by scripts/sanitize.sh and scripts/check_portable_c.sh: a copy of the package in a
# temporary directory whose compiled modules are built with gcc and the caller's flags, so that
# the checkout's own build is never touched, and a check that Python loads that copy.
#
#   build_package_copy "$work" -O1 -fsanitize=address ...   # the copy in "$work/site"
#   check_copy_is_loaded "$work"                            # run from "$work"
#
# Needs $python (the interpreter) and the checkout as the working directory. Every module and C
# file comes from setup.py's own list (its extensions()), so that none is left out; the names of
# the modules built are left in the array package_modules (e.g. kernels/_native).

build_package_copy() {
    local work=$1
    shift
    mkdir -p "$work/site"
    cp -R rouge_plus "$work/site/"
    find "$work/site/rouge_plus" \( -name '*.so' -o -name '*.pyd' -o -name __pycache__ \) -prune \
        -exec rm -rf {} +
    local include suffix extensions name sources module files
    include=$("$python" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
    suffix=$("$python" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
    # One line per extension: "name source...".
    extensions=$("$python" - <<'EOF'
import runpy

for extension in runpy.run_path("setup.py")["extensions"]():
    print(extension.name, *extension.sources)
EOF
    )
    if [[ -z "$extensions" ]]; then
        echo "$(basename "$0"): setup.py lists no extension" >&2
        exit 2
    fi
    package_modules=()
    while read -r name sources; do
        module=${name#rouge_plus.}
        module=${module//.//}
        package_modules+=("$module")
        read -r -a files <<<"$sources"
        gcc "$@" -fPIC -shared -I"$include" "${files[@]}" -o "$work/site/rouge_plus/$module$suffix"
    done <<<"$extensions"
}

check_copy_is_loaded() {
    "$python" - "$1" "${package_modules[@]}" <<'EOF'
import importlib
import sys

for module in sys.argv[2:]:
    name = "rouge_plus." + module.replace("/", ".")
    loaded = importlib.import_module(name).__file__
    if not loaded.startswith(sys.argv[1]):
        sys.exit(f"the copy's {name} is not the one loaded: {loaded}")
EOF
}
