import { Button, CloseButton, Group, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';

/** Typing runs the search this long after the last keystroke (spec §9). */
export const SEARCH_DEBOUNCE_MS = 500;

/**
 * A search box's text and the term actually searched for. Typing applies the
 * term `delay` ms after the last keystroke; `submit` (Enter, the Search
 * button) applies it at once; `clear` empties both. `onApply` runs whenever a
 * new term is applied, e.g. to go back to page 1.
 */
export function useSearchTerm({ delay = SEARCH_DEBOUNCE_MS, onApply }: { delay?: number; onApply?: (term: string) => void } = {}) {
  const [input, setInputState] = useState('');
  const [term, setTerm] = useState('');
  const applied = useRef('');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const onApplyRef = useRef(onApply);
  useEffect(() => {
    onApplyRef.current = onApply;
  });

  const apply = useCallback((value: string, force: boolean) => {
    clearTimeout(timer.current);
    const next = value.trim();
    if (next === applied.current && !force) return;
    applied.current = next;
    setTerm(next);
    onApplyRef.current?.(next);
  }, []);

  const setInput = useCallback(
    (value: string) => {
      setInputState(value);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => apply(value, false), delay);
    },
    [apply, delay],
  );

  useEffect(() => () => clearTimeout(timer.current), []);

  return {
    input,
    term,
    setInput,
    submit: useCallback(() => apply(input, true), [apply, input]),
    clear: useCallback(() => {
      setInputState('');
      apply('', true);
    }, [apply]),
  };
}

export interface SearchBarProps {
  value: string;
  onChange: (value: string) => void;
  onSubmit: () => void;
  onClear: () => void;
  placeholder?: string;
  label?: string;
  /** e.g. a field selector, shown before the box. */
  leftSection?: ReactNode;
  /** Show the Search and Clear buttons (else a clear icon inside the box). */
  withButtons?: boolean;
}

/** A search box where Enter searches at once; typing searches after a pause (see useSearchTerm). */
export function SearchBar({
  value,
  onChange,
  onSubmit,
  onClear,
  placeholder = 'Search...',
  label = 'Search',
  leftSection,
  withButtons = false,
}: SearchBarProps) {
  return (
    <Group gap="xs" align="flex-end" wrap="wrap">
      {leftSection}
      <TextInput
        flex={1}
        miw={220}
        aria-label={label}
        placeholder={placeholder}
        leftSection={<IconSearch size={16} />}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            onSubmit();
          }
        }}
        rightSection={
          !withButtons && value ? <CloseButton size="sm" aria-label="Clear search" onClick={onClear} /> : null
        }
      />
      {withButtons ? (
        <Group gap="xs" wrap="nowrap">
          <Button onClick={onSubmit} leftSection={<IconSearch size={16} />}>
            Search
          </Button>
          <Button variant="default" onClick={onClear}>
            Clear
          </Button>
        </Group>
      ) : null}
    </Group>
  );
}
