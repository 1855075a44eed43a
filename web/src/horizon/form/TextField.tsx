export interface TextFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  multiline?: boolean;
  required?: boolean;
  placeholder?: string;
  hint?: string;
}

/** A labelled input or text area. */
export function TextField({ label, value, onChange, multiline, required, placeholder, hint }: TextFieldProps) {
  return (
    <label className="hz-field">
      <span className="hz-field-label" data-required={required || undefined}>
        {label}
      </span>
      {multiline ? (
        <textarea
          value={value}
          required={required}
          placeholder={placeholder}
          rows={3}
          onChange={(e) => {
            onChange(e.target.value);
          }}
        />
      ) : (
        <input
          value={value}
          required={required}
          placeholder={placeholder}
          onChange={(e) => {
            onChange(e.target.value);
          }}
        />
      )}
      {hint ? <span className="hz-field-hint">{hint}</span> : null}
    </label>
  );
}
