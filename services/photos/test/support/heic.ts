// A real HEIC for tests: one 64×64 frame encoded as HEVC by the bundled ffmpeg (libx265), wrapped in a minimal HEIF
// container (ISO/IEC 23008-12: ftyp heic, meta with hdlr/pitm/iloc/iinf/iprp, mdat) as a phone writes it, minus the
// tiling and EXIF. No encoder for it ships with sharp, and none is needed elsewhere.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mediaBinaryPath } from '../../src/media/index.js';

const SIZE = 64;
const NAL = { vps: 32, sps: 33, pps: 34 } as const;

export function writeHevcHeic(dir: string): Buffer {
  const raw = join(dir, 'frame.hevc');
  execFileSync(mediaBinaryPath('ffmpeg'), ['-v', 'error', '-y', '-f', 'lavfi', '-i', `color=c=red:s=${SIZE}x${SIZE}:d=0.1`, '-frames:v', '1', '-c:v', 'libx265', '-x265-params', 'log-level=error', '-f', 'hevc', raw], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const units = annexBUnits(readFileSync(raw));
  const type = (u: Buffer) => (u[0]! >> 1) & 0x3f;
  const params = (t: number) => units.filter((u) => type(u) === t);
  const slices = units.filter((u) => type(u) < 32);
  const data = Buffer.concat(slices.map((u) => Buffer.concat([u32(u.length), u])));
  return heifFile(hvcC(params(NAL.vps), params(NAL.sps), params(NAL.pps)), data);
}

function annexBUnits(stream: Buffer): Buffer[] {
  const starts: number[] = [];
  for (let i = 0; i + 3 <= stream.length; i++) if (stream[i] === 0 && stream[i + 1] === 0 && stream[i + 2] === 1) starts.push(i + 3);
  return starts.map((start, n) => {
    let end = n + 1 < starts.length ? starts[n + 1]! - 3 : stream.length;
    while (end > start && stream[end - 1] === 0) end--;
    return stream.subarray(start, end);
  });
}

function hvcC(vps: Buffer[], sps: Buffer[], pps: Buffer[]): Buffer {
  // HEVCDecoderConfigurationRecord: version 1, Main profile, level 3.1, 4:2:0, 8 bit, 4-byte NAL lengths.
  const header = Buffer.from([1, 0x01, 0x60, 0, 0, 0, 0x90, 0, 0, 0, 0, 0, 93, 0xf0, 0x00, 0xfc, 0xfd, 0xf8, 0xf8, 0, 0, 0x0f]);
  const arrays = [
    [NAL.vps, vps],
    [NAL.sps, sps],
    [NAL.pps, pps],
  ] as const;
  const body = arrays.map(([t, nals]) => Buffer.concat([Buffer.from([0x80 | t]), u16(nals.length), ...nals.map((n) => Buffer.concat([u16(n.length), n]))]));
  return box('hvcC', header, Buffer.from([arrays.length]), ...body);
}

function heifFile(config: Buffer, data: Buffer): Buffer {
  const ftyp = box('ftyp', Buffer.from('heic'), u32(0), Buffer.from('mif1heic'));
  const meta = (dataOffset: number) =>
    fullBox('meta', 0, 0, [
      fullBox('hdlr', 0, 0, [u32(0), Buffer.from('pict'), Buffer.alloc(12), Buffer.from([0])]),
      fullBox('pitm', 0, 0, [u16(1)]),
      // offset_size 4, length_size 4, base_offset_size 0; one item, one extent.
      fullBox('iloc', 0, 0, [Buffer.from([0x44, 0x00]), u16(1), u16(1), u16(0), u16(1), u32(dataOffset), u32(data.length)]),
      fullBox('iinf', 0, 0, [u16(1), fullBox('infe', 2, 0, [u16(1), u16(0), Buffer.from('hvc1'), Buffer.from([0])])]),
      box('iprp', box('ipco', config, fullBox('ispe', 0, 0, [u32(SIZE), u32(SIZE)])), fullBox('ipma', 0, 0, [u32(1), u16(1), Buffer.from([2, 0x81, 0x02])])),
    ]);
  // The extent's offset is absolute: ftyp, meta and the mdat header come before the data.
  const offset = ftyp.length + meta(0).length + 8;
  return Buffer.concat([ftyp, meta(offset), box('mdat', data)]);
}

function box(type: string, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  return Buffer.concat([u32(body.length + 8), Buffer.from(type, 'latin1'), body]);
}

function fullBox(type: string, version: number, flags: number, parts: Buffer[]): Buffer {
  return box(type, Buffer.from([version, (flags >> 16) & 0xff, (flags >> 8) & 0xff, flags & 0xff]), ...parts);
}

function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}
