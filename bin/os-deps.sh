# Sourced by bin/test and bin/demo: makes sure the OS libraries the bundled MySQL server needs are
# present, installing them when running as root, else stopping with the command to run.
ensure_os_libraries() {
  local missing=() libs
  libs=$("$(command -v ldconfig || echo /sbin/ldconfig)" -p 2>/dev/null || true)
  grep -q 'libaio\.so\.1 ' <<<"$libs" || missing+=(libaio)
  grep -q 'libnuma\.so\.1' <<<"$libs" || missing+=(libnuma1)
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "Missing OS libraries for MySQL: run 'sudo apt-get install libaio1 libnuma1' (libaio1t64 on Debian 13), then retry." >&2
    exit 1
  fi
  echo "Installing OS libraries for MySQL: ${missing[*]}"
  apt-get update -qq
  local packages=()
  for lib in "${missing[@]}"; do
    if [ "$lib" = libaio ]; then
      # Debian 13 renamed the package; take whichever this release has.
      if apt-cache show libaio1 >/dev/null 2>&1; then packages+=(libaio1); else packages+=(libaio1t64); fi
    else
      packages+=("$lib")
    fi
  done
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}" >/dev/null
  # Debian 13's libaio1t64 ships libaio.so.1t64 only; the MySQL binaries ask for libaio.so.1.
  local t64
  t64=$(find /usr/lib /lib -name 'libaio.so.1t64' 2>/dev/null | head -n 1)
  if [ -n "$t64" ] && [ ! -e "$(dirname "$t64")/libaio.so.1" ]; then
    ln -s "$t64" "$(dirname "$t64")/libaio.so.1"
    ldconfig
  fi
}

# root_installs PURPOSE PACKAGE...: stops a run that is not root with the command that installs
# the packages; as root, says what it is about to install them for.
root_installs() {
  local purpose=$1
  shift
  if [ "$(id -u)" -ne 0 ]; then
    echo "Missing $* for $purpose: run 'sudo apt-get install $*', then retry." >&2
    exit 1
  fi
  echo "Installing $* for $purpose"
}

ensure_java() {
  if ! command -v java >/dev/null 2>&1; then
    echo "Java 17 or newer is needed: install a JDK (e.g. 'apt-get install openjdk-17-jdk-headless')." >&2
    exit 1
  fi
}

# The quick start's test runs its commands as a user would: curl, and openssl for the secret.
ensure_shell_tools() {
  local missing=()
  command -v curl >/dev/null 2>&1 || missing+=(curl)
  command -v openssl >/dev/null 2>&1 || missing+=(openssl)
  [ ${#missing[@]} -eq 0 ] && return 0
  root_installs "the quick start's test" "${missing[@]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

# The pages are tested in a real headless browser: Debian's Chromium and its driver.
ensure_browser() {
  if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then
    return 0
  fi
  root_installs "the browser tests" chromium chromium-driver
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
}

# Installs a server's Debian package without starting the system service it comes with: the
# tests start their own servers, on ports of their own.
install_server_package() {
  apt-get update -qq
  local policy=/usr/sbin/policy-rc.d created=
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy" && created=1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
  [ -n "$created" ] && rm -f "$policy"
  return 0
}

# Redis 7 from Debian's redis-server is preferred by the testkit (found on the PATH); without it
# the testkit falls back to the Redis 6.2 bundled in a Maven artifact.
ensure_redis() {
  command -v redis-server >/dev/null 2>&1 && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "No redis-server on the PATH: the tests use the bundled Redis 6.2 ('sudo apt-get install redis-server' for Redis 7)." >&2
    return 0
  fi
  echo "Installing Debian's redis-server (Redis 7) for the tests"
  install_server_package redis-server
}

# The messaging tests run a real RabbitMQ broker: Debian's rabbitmq-server, which the testkit
# starts as a process of its own on free ports (it has no fallback, unlike Redis).
ensure_rabbitmq() {
  [ -x /usr/lib/rabbitmq/bin/rabbitmq-server ] && return 0
  root_installs "the messaging tests" rabbitmq-server
  install_server_package rabbitmq-server
}

# The testkit's PostgresTopology runs Debian's PostgreSQL server as processes of its own, on free
# ports (the system cluster the package makes is left stopped).
ensure_postgresql() {
  compgen -G '/usr/lib/postgresql/*/bin/postgres' >/dev/null && return 0
  root_installs "the testkit's tests" postgresql
  install_server_package postgresql
}

# The testkit's MariaDbTopology runs Debian's MariaDB server (mariadbd, which also makes the data
# folders from the SQL the package ships) as processes of its own, on free ports. The core package
# comes with no system service.
ensure_mariadb() {
  [ -x /usr/sbin/mariadbd ] && return 0
  root_installs "the testkit's tests" mariadb-server-core
  install_server_package mariadb-server-core
}
