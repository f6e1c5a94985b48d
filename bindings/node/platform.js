'use strict';
// The platform suffix napi-rs names a native addon and its npm package by (`linux-x64-gnu`,
// `darwin-arm64`, `win32-x64-msvc`, ...): index.js loads `specmint.<suffix>.node` or the package
// `specmint-<suffix>` by it, and scripts/package.sh names what it builds by it.

/** `<platform>-<arch>[-<abi>]` of this Node process, as @napi-rs/cli spells it. */
function platformArchABI() {
  const { platform, arch } = process;
  let abi = '';
  if (platform === 'linux') {
    const glibc = process.report && process.report.getReport().header.glibcVersionRuntime;
    abi = glibc ? '-gnu' : '-musl';
  } else if (platform === 'win32') {
    abi = '-msvc';
  }
  return `${platform}-${arch}${abi}`;
}

module.exports = { platformArchABI };
