/**
 * Addresses of this machine and its networks in every form the outbound guard must see through,
 * pointing at `port` where a port makes sense: the fuzzer offers them as webhook URLs and store
 * sites, and nothing may reach them.
 */
export function privateTargets(port: number): string[] {
  return [
    `http://127.0.0.1:${port}/hooks`,
    `https://127.0.0.1:${port}/hooks`,
    `http://localhost:${port}/`,
    `http://localhost.:${port}/`,
    `http://[::1]:${port}/`,
    `http://[::ffff:127.0.0.1]:${port}/`,
    `https://[::127.0.0.1]:${port}/`,
    `http://2130706433:${port}/`,
    `http://0177.0.0.1:${port}/`,
    `http://0x7f.1:${port}/`,
    `http://0.0.0.0:${port}/`,
    "http://10.0.0.1/",
    "http://192.168.0.1/",
    "http://169.254.169.254/latest/meta-data/",
    "http://[fd00::1]/",
    "http://[fe80::1]/",
  ];
}
