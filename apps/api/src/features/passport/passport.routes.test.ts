import { execFile } from 'node:child_process';
import { hash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { mayCreatePassport, Role, runSql } from '@foodshare/domain';
import { PassportGenerationListSchema, type PassportGenerationList } from '@foodshare/schemas';
import { deactivateAccount } from '@foodshare/server-kit';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { Value } from 'typebox/value';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import {
  type ApiClient,
  describe,
  expect,
  type Factories,
  ids,
  it,
  type Sql,
} from '../../test-support/fixtures.ts';
import type * as PassportCard from './passport-card.ts';
import { CARD_HEIGHT_PT, CARD_WIDTH_PT } from './passport-card.ts';
import { passportValidity } from './passport-validity.ts';
import { generationsQuery } from './passport.sql.ts';

const run = promisify(execFile);
// jsqr is CommonJS with `exports.default`: under NodeNext its default import is the module.
const jsQR = jsQRModule.default;

/** Runs before the card is drawn, when a test sets it: to fail the drawing or look around. */
const beforeDrawing = vi.hoisted(() => ({ hook: null as null | (() => Promise<void>) }));
vi.mock('./passport-card.ts', async (importOriginal) => {
  const card = await importOriginal<typeof PassportCard>();
  return {
    ...card,
    renderPassportCard: async (input: Parameters<typeof card.renderPassportCard>[0]) => {
      await beforeDrawing.hook?.();
      return card.renderPassportCard(input);
    },
  };
});

/** 83 x 53.3 mm in points, as pdfinfo prints it. */
const WIDTH_PT = (83 * 72) / 25.4;
const HEIGHT_PT = (53.3 * 72) / 25.4;

interface RenderedPdf {
  pages: number;
  width: number;
  height: number;
  text: string;
  images: number;
}

const createUser = (factory: Factories, tag: string, role: number, verified: boolean) =>
  factory.user({ firstName: tag, lastName: 'Prüfling', role, verified });

async function generationsOf(sql: Sql, userId: number): Promise<number> {
  const rows = await sql<{ n: string }[]>(
    'select count(*) as n from passport_generations where user_id = ?',
    [userId],
  );
  return Number(rows[0]!.n);
}

const create = (client: ApiClient) => client.post('/api/user/current/passport');

async function uploadFor(sql: Sql, userId: number, mimeType: string, bytes: Buffer) {
  const sha256 = hash('sha256', bytes, 'hex');
  const rows = await sql<{ id: string }[]>(
    `insert into uploads (user_id, mime_type, size, sha256, content) values (?, ?, ?, ?, ?)
     returning id`,
    [userId, mimeType, bytes.length, sha256, bytes],
  );
  await sql('update users set avatar_upload_id = ? where id = ?', [rows[0]!.id, userId]);
}

describe('passport: POST /api/user/current/passport', () => {
  let workDir: string;

  /** The PDF as poppler sees it: pages, page size in points, text and embedded images. */
  async function render(pdf: Buffer): Promise<RenderedPdf> {
    const file = join(workDir, `${hash('sha256', pdf, 'hex')}.pdf`);
    await writeFile(file, pdf);
    const info = (await run('pdfinfo', [file])).stdout;
    const size = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(info);
    const images = (await run('pdfimages', ['-list', file])).stdout.trim().split('\n').length - 2;
    return {
      pages: Number(/Pages:\s+(\d+)/.exec(info)?.[1]),
      width: Number(size?.[1]),
      height: Number(size?.[2]),
      text: (await run('pdftotext', ['-layout', file, '-'])).stdout,
      images,
    };
  }

  /** The text of the QR code on the card: page rendered by poppler, decoded by jsQR. */
  async function qrCodeOf(pdf: Buffer): Promise<string | undefined> {
    const base = join(workDir, `qr-${hash('sha256', pdf, 'hex')}`);
    await writeFile(`${base}.pdf`, pdf);
    await run('pdftoppm', ['-png', '-r', '300', '-singlefile', `${base}.pdf`, base]);
    const png = PNG.sync.read(await readFile(`${base}.png`));
    return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
  }

  async function passportOf(client: ApiClient): Promise<{ pdf: Buffer; rendered: RenderedPdf }> {
    const response = await create(client);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['cache-control']).toBe('no-store');
    const pdf = response.rawPayload;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    return { pdf, rendered: await render(pdf) };
  }

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'passport-test-'));
  });

  afterEach(() => {
    beforeDrawing.hook = null;
  });

  afterAll(async () => {
    await rm(workDir, { recursive: true, force: true });
  });

  it('states the card size in points as pdfinfo measures it', () => {
    expect(CARD_WIDTH_PT).toBeCloseTo(235.28, 2);
    expect(CARD_HEIGHT_PT).toBeCloseTo(151.09, 2);
  });

  it('makes a one-page card of 83 x 53.3 mm with name, role, validity, id and photo', async ({
    app,
    as,
    sql,
  }) => {
    const before = await generationsOf(sql, ids.users.alice);
    const { pdf, rendered } = await passportOf(await as('alice'));
    expect(rendered.pages).toBe(1);
    expect(Math.abs(rendered.width - WIDTH_PT)).toBeLessThan(0.1);
    expect(Math.abs(rendered.height - HEIGHT_PT)).toBeLessThan(0.1);
    const [lastPass] = await sql<{ at: Date | string }[]>(
      `select max(finished_at) as at from quiz_sessions where user_id = ? and status = 1`,
      [ids.users.alice],
    );
    const { validFrom, validUntil } = passportValidity(new Date(lastPass!.at));
    expect(rendered.text).toContain('Alice Mustermann');
    expect(rendered.text).toContain('Betriebsverantwortliche(r)');
    expect(rendered.text).toContain(`Gültig ab ${validFrom}`);
    expect(rendered.text).toContain(`Gültig bis ${validUntil}`);
    expect(Number(validUntil.slice(-4)) - Number(validFrom.slice(-4))).toBe(3);
    expect(rendered.text).toMatch(new RegExp(`\\bID ${ids.users.alice}\\b`));
    // alice's avatar is on the card.
    expect(rendered.images).toBe(1);
    // The QR code, decoded from the rendered page, links to the profile.
    expect(await qrCodeOf(pdf)).toBe(`${app.config.BASE_URL}/profile/${ids.users.alice}`);
    expect(await generationsOf(sql, ids.users.alice)).toBe(before + 1);
  });

  it('dates the validity from the last passed quiz, so a reprint does not extend it', async ({
    as,
    sql,
    factory,
  }) => {
    const holder = await createUser(factory, 'quizzed', Role.Foodsaver, true);
    await sql(
      `insert into quiz_sessions (user_id, quiz_id, status, started_at, finished_at) values
         (?, 1, 1, '2024-04-30 09:00+02', '2024-04-30 09:20+02'),
         (?, 2, 1, '2024-05-01 09:40+02', '2024-05-01 10:00+02'),
         (?, 2, 2, '2025-01-10 09:00+01', '2025-01-10 09:20+01')`,
      [holder, holder, holder],
    );
    for (let print = 0; print < 2; print++) {
      const { rendered } = await passportOf(await as(holder));
      expect(rendered.text).toContain('Gültig ab 01.05.2024');
      expect(rendered.text).toContain('Gültig bis 01.05.2027');
    }
    expect(await generationsOf(sql, holder)).toBe(2);
  });

  it('dates a card from the day it is made for a verified user without a passed quiz', async ({
    as,
    factory,
  }) => {
    const holder = await createUser(factory, 'unquizzed', Role.Foodsaver, true);
    const caller = await as(holder);
    // The server dates the card by its clock during the request, between these two readings:
    // they name two days only when midnight (Berlin) passed meanwhile, and then it may be either.
    const before = passportValidity(new Date());
    const { rendered } = await passportOf(caller);
    const after = passportValidity(new Date());
    const dated = {
      validFrom: /Gültig ab (\d{2}\.\d{2}\.\d{4})/.exec(rendered.text)?.[1],
      validUntil: /Gültig bis (\d{2}\.\d{2}\.\d{4})/.exec(rendered.text)?.[1],
    };
    expect([before, after]).toContainEqual(dated);
  });

  it('makes the card without a photo for a user who has none', async ({ app, as }) => {
    const { pdf, rendered } = await passportOf(await as('bob'));
    expect(await qrCodeOf(pdf)).toBe(`${app.config.BASE_URL}/profile/${ids.users.bob}`);
    expect(rendered.pages).toBe(1);
    expect(rendered.images).toBe(0);
    expect(rendered.text).toContain('Bob Beispiel');
    expect(rendered.text).toContain('Foodsaver');
    expect(rendered.text).toMatch(new RegExp(`\\bID ${ids.users.bob}\\b`));
  });

  it('leaves off a photo it cannot embed, and still makes the card', async ({
    as,
    sql,
    factory,
  }) => {
    const webp = await createUser(factory, 'webp', Role.Foodsaver, true);
    await uploadFor(sql, webp, 'image/webp', Buffer.from('RIFF0000WEBPVP8 '));
    const broken = await createUser(factory, 'broken', Role.Foodsaver, true);
    await uploadFor(sql, broken, 'image/png', Buffer.from('not a png at all'));
    for (const userId of [webp, broken]) {
      const { rendered } = await passportOf(await as(userId));
      expect(rendered.images).toBe(0);
      expect(rendered.text).toMatch(new RegExp(`\\bID ${userId}\\b`));
    }
  });

  it('keeps a long name on one page', async ({ as, factory }) => {
    const userId = await factory.user({
      firstName: 'Maximiliane-Annegret Wilhelmine',
      lastName: 'Müller-Lüdenscheidt-Schwarzenberg von Łódź',
    });
    const { rendered } = await passportOf(await as(userId));
    expect(rendered.pages).toBe(1);
    expect(rendered.text).toContain('Maximiliane');
    expect(rendered.text).toMatch(new RegExp(`\\bID ${userId}\\b`));
  });

  const roles = [Role.Foodsharer, Role.Foodsaver, Role.StoreManager, Role.Ambassador, Role.Orga];
  it.for(roles.flatMap((role) => [true, false].map((verified) => ({ role, verified }))))(
    'role $role, verified $verified: as mayCreatePassport decides',
    async ({ role, verified }, { as, sql, factory }) => {
      const userId = await createUser(factory, `role${role}v${verified}`, role, verified);
      const allowed = mayCreatePassport({ id: userId, role, verified }, { userId });
      // Every verified user may, and no unverified one: orga is not exempt here.
      expect(allowed).toBe(verified);
      const response = await create(await as(userId));
      expect(response.statusCode).toBe(allowed ? 200 : 403);
      if (!allowed) expect(response.json()).toMatchObject({ code: 'PASSPORT_FORBIDDEN' });
      expect(await generationsOf(sql, userId)).toBe(allowed ? 1 : 0);
    },
  );

  it('refuses an unverified user with 403 and records nothing', async ({ as, sql }) => {
    const response = await create(await as(ids.users.carla));
    expect(response.statusCode).toBe(403);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.json()).toMatchObject({ status: 403, code: 'PASSPORT_FORBIDDEN' });
    expect(await generationsOf(sql, ids.users.carla)).toBe(0);
  });

  it('answers 401 without a session', async ({ anonymous }) => {
    const response = await create(anonymous);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('refuses a request without the CSRF token and records nothing', async ({ as, sql }) => {
    const before = await generationsOf(sql, ids.users.dana);
    const response = await create((await as(ids.users.dana)).withoutCsrf());
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'CSRF_FAILED' });
    expect(await generationsOf(sql, ids.users.dana)).toBe(before);
  });

  it('records nothing when the card cannot be drawn', async ({ as, sql }) => {
    const before = await generationsOf(sql, ids.users.dana);
    beforeDrawing.hook = () => Promise.reject(new Error('drawing refused by test'));
    const response = await create(await as(ids.users.dana));
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('refused by test');
    expect(await generationsOf(sql, ids.users.dana)).toBe(before);
  });

  it('holds no transaction open while it draws the card', async ({ app, as, sql }) => {
    let openTransactions: number | undefined;
    beforeDrawing.hook = async () => {
      const rows = await sql<{ n: number }[]>(
        `select count(*)::int as n from pg_stat_activity
          where datname = current_database() and xact_start is not null and pid <> pg_backend_pid()`,
      );
      openTransactions = rows[0]!.n;
    };
    const before = await generationsOf(sql, ids.users.dana);
    const { pdf } = await passportOf(await as('dana'));
    expect(openTransactions).toBe(0);
    expect(await qrCodeOf(pdf)).toBe(`${app.config.BASE_URL}/profile/${ids.users.dana}`);
    expect(await generationsOf(sql, ids.users.dana)).toBe(before + 1);
  });

  it('records nothing for an account deactivated while its card was drawn', async ({
    as,
    sql,
    factory,
  }) => {
    const userId = await createUser(factory, 'deactivated', Role.Foodsaver, true);
    const client = await as(userId);
    beforeDrawing.hook = async () => {
      await sql('update users set activated = false where id = ?', [userId]);
    };
    const response = await create(client);
    expect(response.statusCode).toBe(401);
    expect(await generationsOf(sql, userId)).toBe(0);
  });

  describe('GET /api/user/current/passport/generations', () => {
    const generations = (client: ApiClient) => client.get('/api/user/current/passport/generations');

    it('refuses an unverified user with 403, as the POST does', async ({ as }) => {
      const response = await generations(await as(ids.users.carla));
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ code: 'PASSPORT_FORBIDDEN' });
    });

    it('reads no generation of a caller who is no longer verified (refused, so no list)', async ({
      app,
      sql,
      factory,
    }) => {
      const userId = await createUser(factory, 'revoked', Role.Foodsaver, true);
      await sql('insert into passport_generations (user_id, generated_by_id) values (?, ?)', [
        userId,
        userId,
      ]);
      const em = app.orm.em.fork();
      expect(await runSql(em, generationsQuery(userId))).toHaveLength(1);
      await sql('update users set verified = false where id = ?', [userId]);
      expect(await runSql(em, generationsQuery(userId))).toEqual([]);
    });

    it('answers 401 once the account is deactivated, as the POST does', async ({
      app,
      as,
      factory,
    }) => {
      const userId = await createUser(factory, 'gone', Role.Foodsaver, true);
      const client = await as(userId);
      expect((await generations(client)).statusCode).toBe(200);
      await deactivateAccount(app.orm.em.fork(), app.sessions, userId);
      const response = await generations(client);
      expect(response.statusCode).toBe(401);
      expect((await create(client)).statusCode).toBe(401);
    });

    it('lists the caller’s generations newest first, the new one on top', async ({ as }) => {
      const client = await as(ids.users.kim);
      const list = () => generations(client);
      const before = await list();
      expect(before.statusCode).toBe(200);
      expect(before.json()).toEqual([]);
      expect((await create(client)).statusCode).toBe(200);
      expect((await create(client)).statusCode).toBe(200);
      const after = await list();
      const body = after.json();
      expect(Value.Check(PassportGenerationListSchema, body)).toBe(true);
      expect(body).toHaveLength(2);
      expect(body[0].id).toBeGreaterThan(body[1].id);
      expect(body[0].generatedBy).toEqual({
        id: ids.users.kim,
        name: 'Kim',
        avatar: null,
        isSleeping: false,
      });
    });

    it('shows alice the generation of the demo data among hers', async ({ as }) => {
      const client = await as(ids.users.alice);
      const response = await generations(client);
      const body = response.json<PassportGenerationList>();
      expect(Value.Check(PassportGenerationListSchema, body)).toBe(true);
      const oldest = body.at(-1);
      expect(Date.now() - Date.parse(oldest?.createdAt ?? '')).toBeGreaterThan(99 * 86_400_000);
    });

    it('answers 401 without a session', async ({ anonymous }) => {
      const response = await generations(anonymous);
      expect(response.statusCode).toBe(401);
    });
  });
});
