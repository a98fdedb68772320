-- A worker's editor settings (back-track, skip length, remapped hotkeys), kept per worker
-- (src/domain/workbench/editorSettings.ts). Null: the defaults.
ALTER TABLE workers ADD COLUMN editor_settings jsonb;
