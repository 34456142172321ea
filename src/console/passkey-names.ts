/**
 * Names for passkeys, so a person can tell theirs apart on the Passkeys page: the name they
 * give, else the passkey provider's name when the authenticator says which it is (its AAGUID),
 * else the browser and system it was made on.
 */

/**
 * Well-known AAGUIDs and their providers' names, from the community list at
 * github.com/passkeydeveloper/passkey-authenticator-aaguids (aaguid.json for passkey
 * providers; the FIDO Metadata Service entries it carries for security keys). A provider may
 * send zeros instead (browsers may, when attestation is not asked for): then nothing here
 * matches and the browser's name is used.
 */
const PROVIDERS: Readonly<Record<string, string>> = {
  'ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4': 'Google Password Manager',
  'adce0002-35bc-c60a-648b-0b25f1f05503': 'Chrome on Mac',
  'b5397666-4885-aa6b-cebf-e52262a439a2': 'Chromium Browser',
  '771b48fd-d3d4-4f74-9232-fc157ab0507a': 'Edge on Mac',
  'fbfc3007-154e-4ecc-8c0b-6e020557d7bd': 'Apple Passwords (iCloud Keychain)',
  'dd4ec289-e01d-41c9-bb89-70fa845d4bf2': 'iCloud Keychain (Managed)',
  '08987058-cadc-4b81-b6e1-30de50dcbe96': 'Windows Hello',
  '9ddd1817-af5a-4672-a2b9-3e3dd95000a9': 'Windows Hello',
  '6028b017-b1d4-4c02-b4b3-afcdafc96bb2': 'Windows Hello',
  'd3452668-01fd-4c12-926c-83a4204853aa': 'Microsoft Password Manager',
  '53414d53-554e-4700-0000-000000000000': 'Samsung Pass',
  'bada5566-a7aa-401f-bd96-45619a55120d': '1Password',
  'd548826e-79b4-db40-a3d8-11116f7e8349': 'Bitwarden',
  '531126d6-e717-415c-9320-3d9aa6981239': 'Dashlane',
  'b84e4048-15dc-4dd0-8640-f4f60813c8af': 'NordPass',
  '0ea242b4-43c4-4a1b-8b17-dd6d0b6baec6': 'Keeper',
  'b78a0a55-6ef8-d246-a042-ba0f6d55050c': 'LastPass',
  '50726f74-6f6e-5061-7373-50726f746f6e': 'Proton Pass',
  'fdb141b2-5d84-443e-8a35-4698c205a502': 'KeePassXC',
  'cb69481e-8ff7-4039-93ec-0a2729a154a8': 'YubiKey 5 Series',
  'ee882879-721c-4913-9775-3dfcce97072a': 'YubiKey 5 Series',
  '19083c3d-8383-4b18-bc03-8f1c9ab2fd1b': 'YubiKey 5 Series',
  'ff4dac45-ede8-4ec2-aced-cf66103f4335': 'YubiKey 5 Series',
  'fa2b99dc-9e39-4257-8f92-4a30d23c4118': 'YubiKey 5 Series with NFC',
  '2fc0579f-8113-47ea-b116-bb5a8db9202a': 'YubiKey 5 Series with NFC',
  'a25342c0-3cdc-4414-8e46-f4807fca511c': 'YubiKey 5 Series with NFC',
  'd7781e5d-e353-46aa-afe2-3ca49f13332a': 'YubiKey 5 Series with NFC',
  'c5ef55ff-ad9a-4b9f-b580-adebafe026d0': 'YubiKey 5 Series with Lightning',
  'a02167b9-ae71-4ac7-9a07-06432ebb6f1c': 'YubiKey 5 Series with Lightning',
  '42b4fb4a-2866-43b2-9bf7-6c6669c2e5d3': 'Google Titan Security Key v2',
};

/** The provider's name for an AAGUID from the list above, or null (unknown, or all zeros). */
export function providerName(aaguid: string): string | null {
  return PROVIDERS[aaguid.toLowerCase()] ?? null;
}

// Order matters: Edge and Opera also say "Chrome", Chrome also says "Safari".
const BROWSERS: readonly [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\b(?:OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\b(?:Headless)?Chrome\/|\bCriOS\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];
// Order matters: Android and ChromeOS also say "Linux", iPhones say "like Mac OS X".
const SYSTEMS: readonly [RegExp, string][] = [
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

/**
 * A name for a passkey made in this browser, from its User-Agent: "Firefox on Windows",
 * "Safari on iPhone"; "this browser" when it says nothing recognisable. Only a suggestion,
 * which the person can change before registering.
 */
export function browserName(userAgent: string | undefined): string {
  const ua = userAgent ?? '';
  const browser = BROWSERS.find(([re]) => re.test(ua))?.[1];
  const system = SYSTEMS.find(([re]) => re.test(ua))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? (system ? `a browser on ${system}` : 'this browser');
}

/** The name a new passkey is saved under: the one given, else its provider's, else its browser's. */
export function passkeyName(given: string, aaguid: string, userAgent: string | undefined): string {
  return given || providerName(aaguid) || browserName(userAgent);
}
