import { setupTemplateDatabase } from '@foodshare/testing';
import { migrateDatabase } from '../orm.ts';

export default () => setupTemplateDatabase({ name: 'domain', migrate: migrateDatabase });
