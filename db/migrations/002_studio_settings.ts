/**
 * Studio settings beyond the first schema: the tax rate and the branding client documents carry.
 * Added columns have defaults, so existing studios keep working: no tax, no branding beyond the studio's name.
 */
export const name = 'studio_settings';
export const statements = [
  `ALTER TABLE studios ADD COLUMN tax_rate4 TEXT NOT NULL DEFAULT '0'`,
  `ALTER TABLE studios ADD COLUMN brand_display_name TEXT`,
  `ALTER TABLE studios ADD COLUMN brand_accent_colour TEXT NOT NULL DEFAULT '#1f2937'`,
  `ALTER TABLE studios ADD COLUMN brand_logo_text TEXT`,
];
