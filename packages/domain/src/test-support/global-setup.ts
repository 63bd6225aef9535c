import { setupTemplateDatabase } from '@foodshare/testing';
import { migrateDatabase } from '../db/orm.ts';

export default () => setupTemplateDatabase({ name: 'domain', migrate: migrateDatabase });
