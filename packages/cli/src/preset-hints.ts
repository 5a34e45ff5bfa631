/**
 * Literals of secretlint's recommended preset (13.0.7), as data: for each rule, strings one of which every match
 * of the rule contains (with the same letter case), read from its expressions. A rule runs only on strings
 * holding one of its literals; a rule missing here runs on every string. `test/hostile/secretlint.test.ts`
 * checks every rule is listed and that the literals lose nothing on the corpus and on each rule's own shapes.
 */
export const PRESET_HINTS: Readonly<Record<string, readonly string[]>> = {
  // `aws_secret_access_key = …` in any of three letter cases (access key ids only with `enableIDScanRule`).
  aws: ['ecret', 'ECRET'],
  // Reads `.json` / `.p12` files only, never a transcript's strings.
  gcp: [],
  npm: ['npm_', '_authToken=', '://'],
  slack: ['xox', 'xapp-', '://'],
  basicauth: ['://'],
  openai: ['T3BlbkFJ'],
  anthropic: ['sk-ant-api0'],
  groq: ['gsk_'],
  huggingface: ['hf_'],
  linear: ['lin_api_'],
  notion: ['ntn_'],
  privatekey: ['-----BEGIN'],
  sendgrid: ['SG.'],
  shopify: ['shppa_', 'shpca_', 'shpat_', 'shpss_'],
  stripe: ['k_live_', 'k_test_'],
  github: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
  gitlab: ['glpat-'],
  grafana: ['glc_', 'glsa_'],
  '1password': ['ops_'],
  // mongodb://, mysql://, postgres:// in any letter case.
  'database-connection-string': ['://'],
  'hashicorp-vault': ['hvs.', 'hvb.', 'hvr.'],
  vercel: ['vcp_', 'vci_', 'vca_', 'vcr_', 'vck_'],
  databricks: ['dapi'],
  docker: ['dckr_pat_'],
  figma: ['figd_'],
  cloudflare: ['cfk_', 'cfut_', 'cfat_'],
  tailscale: ['tskey-'],
};
