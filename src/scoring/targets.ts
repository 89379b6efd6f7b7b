/**
 * Platform targets: the systems a server acts on (GitHub, Slack, PostgreSQL, ...), inferred from its name
 * alone by the keyword table below. Neither source records targets, so this rule is the only place they come
 * from; data/README.md mirrors the table (a test keeps the two in step).
 *
 * The hard part is the namespace. Most names are `io.github.<account>/<id>`: the `io.github.` part says
 * where the code is hosted and `<account>` is a person or an organisation, so matching keywords there would
 * make every GitHub-hosted server a "GitHub" target (and `io.github.redis-fan/notes` a "Redis" one). So the
 * namespace of a code-hosting prefix is ignored entirely; any other namespace (`com.stripe`, `aws.api...`)
 * names its publisher and is matched like the id.
 */

/** One row of the keyword table: a canonical display name and the keywords that imply it. */
export interface TargetRule {
  /** The display spelling that goes into `targets` (e.g. `PostgreSQL`). */
  readonly target: string;
  /**
   * Lower-case letters and digits only. A keyword matches a whole word of the name, or two or three
   * consecutive words written together (`googledrive` matches `google-drive`, `GoogleDrive` and
   * `google_drive`), so brand names split by case changes (`GitHub` → `git hub`) still match.
   */
  readonly keywords: readonly string[];
}

/**
 * The keyword table, in output order. Tuned on the names of the 2026-02-21 scorecard: every row matches at
 * least one of them. Deliberately absent: words that are too ambiguous in server names (`git` is not GitHub,
 * `make` is GNU make as often as Make.com, `apollo`, `fabric`, `teams`, `drive`, `docs`, `x`), and AI model
 * vendors (`openai`, `claude`, `gemini`), which in these names mostly say which client a server is built for.
 */
export const TARGET_RULES: readonly TargetRule[] = [
  // Code hosting, packages and developer tools
  { target: 'GitHub', keywords: ['github'] },
  { target: 'GitLab', keywords: ['gitlab'] },
  { target: 'Bitbucket', keywords: ['bitbucket'] },
  { target: 'npm', keywords: ['npm'] },
  { target: 'PyPI', keywords: ['pypi'] },
  { target: 'Docker', keywords: ['docker', 'dockerhub'] },
  { target: 'Kubernetes', keywords: ['kubernetes', 'k8s', 'kubectl'] },
  { target: 'Terraform', keywords: ['terraform'] },
  { target: 'Argo CD', keywords: ['argocd'] },
  { target: 'Sentry', keywords: ['sentry'] },
  { target: 'Datadog', keywords: ['datadog'] },
  { target: 'Grafana', keywords: ['grafana'] },
  { target: 'Prometheus', keywords: ['prometheus'] },
  { target: 'PagerDuty', keywords: ['pagerduty'] },
  { target: 'SonarQube', keywords: ['sonarqube'] },
  { target: 'Snyk', keywords: ['snyk'] },
  { target: 'Xcode', keywords: ['xcode'] },
  { target: 'Android', keywords: ['android'] },
  { target: 'Unity', keywords: ['unity', 'unity3d'] },
  { target: 'Unreal Engine', keywords: ['unreal'] },
  { target: 'Chrome', keywords: ['chrome'] },
  { target: 'Playwright', keywords: ['playwright'] },
  { target: 'Puppeteer', keywords: ['puppeteer'] },
  { target: 'Selenium', keywords: ['selenium'] },
  // Cloud platforms
  { target: 'AWS', keywords: ['aws'] },
  { target: 'Azure', keywords: ['azure'] },
  { target: 'Oracle', keywords: ['oracle'] },
  { target: 'Cloudflare', keywords: ['cloudflare'] },
  { target: 'Vercel', keywords: ['vercel'] },
  { target: 'Firebase', keywords: ['firebase', 'firestore'] },
  { target: 'Supabase', keywords: ['supabase'] },
  // Databases and search engines
  { target: 'PostgreSQL', keywords: ['postgres', 'postgresql', 'pg', 'psql', 'pgvector'] },
  { target: 'MySQL', keywords: ['mysql'] },
  { target: 'SQL Server', keywords: ['mssql', 'sqlserver'] },
  { target: 'SQLite', keywords: ['sqlite'] },
  { target: 'MongoDB', keywords: ['mongodb', 'mongo'] },
  { target: 'Redis', keywords: ['redis'] },
  { target: 'Neo4j', keywords: ['neo4j'] },
  { target: 'Elasticsearch', keywords: ['elasticsearch'] },
  { target: 'BigQuery', keywords: ['bigquery'] },
  { target: 'Databricks', keywords: ['databricks'] },
  { target: 'ChromaDB', keywords: ['chromadb'] },
  // Messaging and collaboration
  { target: 'Slack', keywords: ['slack'] },
  { target: 'Discord', keywords: ['discord'] },
  { target: 'Telegram', keywords: ['telegram'] },
  { target: 'WhatsApp', keywords: ['whatsapp'] },
  { target: 'Notion', keywords: ['notion'] },
  { target: 'Obsidian', keywords: ['obsidian'] },
  { target: 'Jira', keywords: ['jira'] },
  { target: 'Confluence', keywords: ['confluence'] },
  { target: 'Atlassian', keywords: ['atlassian'] },
  { target: 'Linear', keywords: ['linear'] },
  { target: 'Trello', keywords: ['trello'] },
  { target: 'ClickUp', keywords: ['clickup'] },
  { target: 'Monday.com', keywords: ['monday'] },
  { target: 'Todoist', keywords: ['todoist'] },
  { target: 'Airtable', keywords: ['airtable'] },
  { target: 'Miro', keywords: ['miro'] },
  { target: 'Figma', keywords: ['figma'] },
  { target: 'Canva', keywords: ['canva'] },
  { target: 'MediaWiki', keywords: ['mediawiki'] },
  { target: 'Nextcloud', keywords: ['nextcloud'] },
  // Google and Microsoft productivity
  { target: 'Gmail', keywords: ['gmail'] },
  { target: 'Google Drive', keywords: ['googledrive', 'gdrive'] },
  { target: 'Google Sheets', keywords: ['googlesheets', 'gsheets'] },
  { target: 'Google Docs', keywords: ['googledocs', 'googledocuments', 'gdocs'] },
  { target: 'Google Calendar', keywords: ['googlecalendar', 'googlecal', 'gcal'] },
  { target: 'Google Forms', keywords: ['googleforms'] },
  { target: 'Google Workspace', keywords: ['googleworkspace', 'gsuite'] },
  { target: 'Google Maps', keywords: ['googlemaps'] },
  { target: 'Google Analytics', keywords: ['googleanalytics', 'ga4'] },
  { target: 'YouTube', keywords: ['youtube'] },
  { target: 'Outlook', keywords: ['outlook'] },
  { target: 'SharePoint', keywords: ['sharepoint'] },
  { target: 'Excel', keywords: ['excel'] },
  { target: 'Microsoft 365', keywords: ['m365', 'office365', 'microsoft365'] },
  { target: 'Power BI', keywords: ['powerbi'] },
  { target: 'Microsoft Fabric', keywords: ['microsoftfabric'] },
  // Business, commerce and payments
  { target: 'Salesforce', keywords: ['salesforce'] },
  { target: 'Attio', keywords: ['attio'] },
  { target: 'Zoho', keywords: ['zoho'] },
  { target: 'ServiceNow', keywords: ['servicenow'] },
  { target: 'SAP', keywords: ['sap'] },
  { target: 'QuickBooks', keywords: ['quickbooks'] },
  { target: 'Xero', keywords: ['xero'] },
  { target: 'Stripe', keywords: ['stripe'] },
  { target: 'PayPal', keywords: ['paypal'] },
  { target: 'Shopify', keywords: ['shopify'] },
  { target: 'Amazon', keywords: ['amazon'] },
  { target: 'Mailchimp', keywords: ['mailchimp'] },
  // Web, media, search and devices
  { target: 'Reddit', keywords: ['reddit'] },
  { target: 'LinkedIn', keywords: ['linkedin'] },
  { target: 'Spotify', keywords: ['spotify'] },
  { target: 'WordPress', keywords: ['wordpress'] },
  { target: 'Dropbox', keywords: ['dropbox'] },
  { target: 'n8n', keywords: ['n8n'] },
  { target: 'arXiv', keywords: ['arxiv'] },
  { target: 'Brave Search', keywords: ['brave'] },
  { target: 'Tavily', keywords: ['tavily'] },
  { target: 'Perplexity', keywords: ['perplexity'] },
  { target: 'Hugging Face', keywords: ['huggingface'] },
  { target: 'Home Assistant', keywords: ['homeassistant', 'hass'] },
  { target: 'Oura', keywords: ['oura'] },
];

/**
 * Namespace prefixes of code-hosting sites. A namespace that starts with one of them (and so goes on with an
 * account name) says where the code lives and who owns it, not what the server talks to: it is not matched.
 * `com.gitlab` itself (GitLab's own namespace, no account after it) is not such a namespace.
 */
export const HOSTING_NAMESPACE_PREFIXES: readonly string[] = [
  'io.github.',
  'com.github.',
  'io.gitlab.',
  'com.gitlab.',
  'io.bitbucket.',
  'org.bitbucket.',
  'org.codeberg.',
];

/** Words that wrap a platform name inside one word (`discordmcp`, `mcpslack`); they are peeled off once. */
const WRAPPER_WORDS = ['mcp'] as const;

/**
 * The words of a name part: split on `/ . - _`, white space and letter-case changes, lower-cased.
 * `XcodeBuildMCP` → `xcode build mcp`; `neo4j` stays one word (digits do not split).
 */
export function nameWords(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[/._\-\s]+/)
    .filter((word) => word.length > 0);
}

/**
 * Every token a keyword may equal: each word, each run of 2 or 3 consecutive words written together, each
 * word with a wrapper word peeled off. The runs are made twice, the second time with trailing version digits
 * dropped (`google-calendar2` → `googlecalendar`); the words as written stay too, so `neo4j` and `ga4` match.
 */
function matchTokens(words: readonly string[]): Set<string> {
  const tokens = new Set<string>();
  const undigited = words.map((word) => word.replace(/(?<=[a-z])\d+$/, ''));
  for (const list of [words, undigited]) {
    for (let i = 0; i < list.length; i++) {
      let joined = '';
      for (let j = i; j < Math.min(i + 3, list.length); j++) {
        joined += list[j];
        tokens.add(joined);
      }
    }
  }
  for (const word of words) {
    for (const wrapper of WRAPPER_WORDS) {
      if (word.length <= wrapper.length) continue;
      if (word.startsWith(wrapper)) tokens.add(word.slice(wrapper.length));
      if (word.endsWith(wrapper)) tokens.add(word.slice(0, -wrapper.length));
    }
  }
  return tokens;
}

/** True when the namespace is an account on a code-hosting site (`io.github.someone`). */
export function isHostedNamespace(namespace: string): boolean {
  const lower = namespace.toLowerCase();
  return HOSTING_NAMESPACE_PREFIXES.some((prefix) => lower.startsWith(prefix) && lower.length > prefix.length);
}

/**
 * The platform targets of a server named `<namespace>/<id>`, in the order of TARGET_RULES, each at most
 * once. Id and namespace are matched separately (a keyword never spans the `/`); a hosted namespace is
 * skipped (see the module comment).
 */
export function inferTargets(name: string): string[] {
  const slash = name.indexOf('/');
  const namespace = slash < 0 ? '' : name.slice(0, slash);
  const id = slash < 0 ? name : name.slice(slash + 1);
  const tokens = matchTokens(nameWords(id));
  if (!isHostedNamespace(namespace)) for (const token of matchTokens(nameWords(namespace))) tokens.add(token);
  return TARGET_RULES.filter((rule) => rule.keywords.some((keyword) => tokens.has(keyword))).map((rule) => rule.target);
}
