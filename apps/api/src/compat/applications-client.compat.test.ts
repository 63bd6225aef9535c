import { RegionType } from '@foodshare/domain';
import { describe, expect, it } from './fixtures.ts';
import type { ApiTester } from './api-tester.ts';
import { webClient } from './web-client.ts';

/**
 * The platform's web client, client/src/api/applications.js: `declineApplication` is
 * `remove()`, a DELETE with `Content-Type: application/json; charset=utf-8` and the body `{}`.
 */
describe('web client: applications.js', () => {
  async function groupWithApplicant(I: ApiTester) {
    const [group] = await I.sql<{ id: number }[]>(
      `insert into regions (name, type) values ('Compat AG', ?) returning id`,
      [RegionType.WorkingGroup],
    );
    const admin = await I.createFoodsaver();
    const applicant = await I.createFoodsaver();
    await I.sql('insert into region_admins (region_id, user_id) values (?, ?)', [
      group!.id,
      admin.id,
    ]);
    await I.sql(
      `insert into work_group_applications (group_id, user_id, message) values (?, ?, 'Hallo')`,
      [group!.id, applicant.id],
    );
    return { groupId: group!.id, admin, applicant };
  }

  const pending = (I: ApiTester, groupId: number, userId: number) =>
    I.count('from work_group_applications where group_id = ? and user_id = ?', [groupId, userId]);

  it('declineApplication', async ({ I }) => {
    const { groupId, admin, applicant } = await groupWithApplicant(I);
    const client = await I.login(admin);
    const path = `/groups/${groupId}/applications/${applicant.id}`;
    const response = await webClient.remove(I.app, client, path);
    expect(response.statusCode).toBe(200);
    expect(await pending(I, groupId, applicant.id)).toBe(0);
    // Declining again finds nothing to decline and is still a success.
    expect((await webClient.remove(I.app, client, path)).statusCode).toBe(200);
  });

  it('declineApplication by a member who is not an admin', async ({ I }) => {
    const { groupId, applicant } = await groupWithApplicant(I);
    const stranger = await I.createFoodsaver();
    const response = await webClient.remove(
      I.app,
      await I.login(stranger),
      `/groups/${groupId}/applications/${applicant.id}`,
    );
    expect(response.statusCode).toBe(403);
    expect(await pending(I, groupId, applicant.id)).toBe(1);
  });

  it('declineApplication for a group that does not exist', async ({ I }) => {
    const orga = await I.createOrga();
    const response = await webClient.remove(
      I.app,
      await I.login(orga),
      '/groups/999999/applications/1',
    );
    expect(response.statusCode).toBe(404);
  });
});
