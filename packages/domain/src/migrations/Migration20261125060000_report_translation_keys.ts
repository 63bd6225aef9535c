import { Migration } from '@mikro-orm/migrations';

const STATUS_PRESETS = `'to_do', 'in_progress', 'handed_over', 'mediation', 'follow_up_user', 'reminder', 'completed', 'deleted'`;
const CONSEQUENCES = ['warning', 'yellow_card', 'yellow_red_card', 'red_card'];
const list = (values: string[]) => values.map((value) => `'${value}'`).join(', ');

/**
 * Report status and consequence as the reference platform stores and serves them: its
 * translation keys (`reports.statuses.to_do`, `reports.consequences.warning`), and no status
 * until the report team sets one.
 */
export class Migration20261125060000_report_translation_keys extends Migration {
  override readonly name = 'Migration20261125060000_report_translation_keys';

  override up(): void {
    this.addSql(`alter table "reports" drop constraint "reports_consequence_check"`);
    this.addSql(
      `update "reports" set "consequence" = 'reports.consequences.' || "consequence" where "consequence" is not null`,
    );
    this.addSql(
      `update "reports" set "status" = 'reports.statuses.' || "status" where "status" in (${STATUS_PRESETS})`,
    );
    this.addSql(
      `alter table "reports" alter column "status" drop default, alter column "status" drop not null`,
    );
    this.addSql(
      `alter table "reports" add constraint "reports_consequence_check" check (consequence in (${list(CONSEQUENCES.map((c) => `reports.consequences.${c}`))}))`,
    );
  }

  override down(): void {
    this.addSql(`alter table "reports" drop constraint "reports_consequence_check"`);
    this.addSql(
      `update "reports" set "consequence" = substr("consequence", length('reports.consequences.') + 1) where "consequence" is not null`,
    );
    this.addSql(
      `update "reports" set "status" = substr("status", length('reports.statuses.') + 1) where "status" like 'reports.statuses.%'`,
    );
    this.addSql(`update "reports" set "status" = 'to_do' where "status" is null`);
    this.addSql(
      `alter table "reports" alter column "status" set default 'to_do', alter column "status" set not null`,
    );
    this.addSql(
      `alter table "reports" add constraint "reports_consequence_check" check (consequence in (${list(CONSEQUENCES)}))`,
    );
  }
}
