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
