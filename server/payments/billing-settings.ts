import { recordAudit } from '../audit/record.js';
import type { SessionUser } from '../auth/session.js';
import type { Db } from '../db/index.js';
import * as repo from './repo.js';
import { type BillingSettings, type BillingSettingsInput, billingSettingsInput } from './schema.js';
import { type PaymentDeps, parse } from './shared.js';

/* ---------------------------- billing details ---------------------------- */

type SettingsRow = NonNullable<Awaited<ReturnType<typeof repo.findBillingSettings>>>;

const toSettings = (r: SettingsRow): BillingSettings => ({
  legalName: r.legal_name,
  address: r.address,
  stateCode: r.state_code,
  gstin: r.gstin,
  sacCode: r.sac_code,
  taxRateBp: r.tax_rate_bp,
  upiVpa: r.upi_vpa,
  payeeName: r.payee_name,
  invoicePrefix: r.invoice_prefix,
});

export async function getBillingSettings(db: Db): Promise<BillingSettings | null> {
  const row = await repo.findBillingSettings(db);
  return row ? toSettings(row) : null;
}

export async function saveBillingSettings(deps: PaymentDeps, actor: SessionUser, input: BillingSettingsInput) {
  const s = parse(billingSettingsInput, input);
  await deps.db.transaction().execute(async (trx) => {
    const before = await repo.findBillingSettings(trx);
    await repo.saveBillingSettings(
      trx,
      {
        legal_name: s.legalName,
        address: s.address,
        state_code: s.stateCode,
        gstin: s.gstin,
        sac_code: s.sacCode,
        tax_rate_bp: s.taxRateBp,
        upi_vpa: s.upiVpa,
        payee_name: s.payeeName,
        invoice_prefix: s.invoicePrefix,
      },
      deps.clock(),
    );
    await recordAudit(trx, actor, {
      action: 'billing.settings_saved',
      entity: 'billing_settings',
      entityId: 1,
      summary: `Billing details saved: ${s.legalName}, ${s.gstin ? `GSTIN ${s.gstin}, ${s.taxRateBp / 100}%` : 'not registered for GST'}`,
      details: { before: before ? toSettings(before) : null, after: s },
    });
  });
  return { message: 'Billing details saved.' };
}
