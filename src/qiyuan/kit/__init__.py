"""The verification kit (核对工具): edition bundles built and checked without the office — signature, every
file's digest, and the edition recomputed from its own inputs.  No Django: ``qiyuan verify-edition`` runs
anywhere qiyuan is installed, with no office and no database."""
