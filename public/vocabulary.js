// Generated from src/model/vocabulary.ts by scripts/generated-files.ts: do not edit.

/** The trust bands, highest first: label, CSS key, score range. */
export const BANDS = [
  {
    "label": "High Trust",
    "key": "high",
    "min": 80,
    "max": 100
  },
  {
    "label": "Moderate Trust",
    "key": "moderate",
    "min": 60,
    "max": 79
  },
  {
    "label": "Low Trust",
    "key": "low",
    "min": 40,
    "max": 59
  },
  {
    "label": "Very Low Trust",
    "key": "verylow",
    "min": 20,
    "max": 39
  },
  {
    "label": "Unknown/Suspicious",
    "key": "unknown",
    "min": 0,
    "max": 19
  }
];

/** Every known flag, most severe first: name, meaning, severity. */
export const FLAGS = [
  {
    "name": "KNOWN_MALICIOUS",
    "meaning": "a package of it is published as malware, or the version named is a known-malicious release (an OSV MAL- advisory)",
    "severity": "high",
    "blocking": true
  },
  {
    "name": "REGISTRY_TAKEDOWN",
    "meaning": "taken down by a registry: deleted by the MCP registry or removed for security by a package registry",
    "severity": "high",
    "blocking": true
  },
  {
    "name": "VULNERABLE_VERSION",
    "meaning": "the version named has a published vulnerability advisory with a fixed version",
    "severity": "high"
  },
  {
    "name": "REMOTE_UNREACHABLE",
    "meaning": "its remote endpoint did not answer on consecutive probes",
    "severity": "high"
  },
  {
    "name": "TOOL_INSTRUCTIONS",
    "meaning": "a tool description addresses the model (hidden tags, instructions to ignore or call, invisible characters)",
    "severity": "high"
  },
  {
    "name": "TOOLS_CHANGED",
    "meaning": "its tool definitions changed while its version did not",
    "severity": "medium"
  },
  {
    "name": "DEPRECATED",
    "meaning": "marked deprecated by its publisher in the MCP registry or its package registry",
    "severity": "medium"
  },
  {
    "name": "SSE_ONLY",
    "meaning": "its only remote transport is SSE, which the MCP specification deprecates",
    "severity": "low"
  },
  {
    "name": "INSUFFICIENT_EVIDENCE",
    "meaning": "too little of it was measured to score it with confidence: the score rests on few facts",
    "severity": "low"
  },
  {
    "name": "NO_SOURCE",
    "meaning": "no public source repository and no verifiable package source: the code cannot be inspected",
    "severity": "high"
  },
  {
    "name": "DEAD_ENTRY",
    "meaning": "no packages and no remotes: the registry entry cannot be installed or reached",
    "severity": "high"
  },
  {
    "name": "SENSITIVE_CRED_REQUEST",
    "meaning": "asks for high-risk credentials (wallet keys, database passwords, private keys, seed phrases)",
    "severity": "high"
  },
  {
    "name": "HIGH_SECRET_DEMAND",
    "meaning": "asks for 5 or more secret environment variables",
    "severity": "medium"
  },
  {
    "name": "REPO_ARCHIVED",
    "meaning": "its source repository is archived by its maintainer: no longer maintained",
    "severity": "medium"
  },
  {
    "name": "STAGING_ARTIFACT",
    "meaning": "a test or staging name with a template description: probably published by mistake",
    "severity": "medium"
  },
  {
    "name": "TEMPLATE_DESCRIPTION",
    "meaning": "its description is boilerplate rather than a statement of what it does",
    "severity": "low"
  },
  {
    "name": "DESCRIPTION_DUPLICATE",
    "meaning": "the same description is used by servers of 3 or more different publishers",
    "severity": "low"
  }
];
