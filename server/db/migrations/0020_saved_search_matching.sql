-- Placeholder: filled by the issue 28 work on this area.
SELECT 1;
