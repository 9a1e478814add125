import type { MutateOptions, UseMutationResult } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { UploadProgress } from '@/lib/api-client';

export interface UploadRequest {
  file: File;
  signal?: AbortSignal;
}

/**
 * The state of a file upload modal: the chosen file and the progress of its
 * upload. Give `onProgress` to the feature's upload mutation, then
 * uploadActions() to get what the modal's buttons do.
 */
export function useFileUpload() {
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const controller = useRef<AbortController | null>(null);
  return { file, setFile, progress, onProgress: setProgress, controller };
}

/**
 * What the buttons of an upload modal do with `upload` (the feature's
 * mutation): `start` sends the chosen file (abortable), with `more` of the
 * mutation's variables if it takes more than the file, `choose` takes
 * another file, `reset` forgets everything for another file, `close` aborts
 * a running upload, forgets everything and closes. `aborted` tells a
 * cancelled upload from a failed one.
 */
export function uploadActions<R, V extends UploadRequest = UploadRequest>(
  state: ReturnType<typeof useFileUpload>,
  upload: UseMutationResult<R, Error, V>,
  onClose: () => void,
) {
  const reset = () => {
    state.setFile(null);
    state.onProgress(null);
    upload.reset();
  };
  const close = () => {
    state.controller.current?.abort();
    reset();
    onClose();
  };
  const start = (options?: MutateOptions<R, Error, V>, more?: Omit<V, keyof UploadRequest>) => {
    const file = state.file;
    if (!file || upload.isPending) return;
    state.controller.current = new AbortController();
    state.onProgress({ loaded: 0, total: file.size, percent: 0 });
    upload.mutate({ ...more, file, signal: state.controller.current.signal } as V, options);
  };
  const choose = (next: File | null) => {
    upload.reset();
    state.onProgress(null);
    state.setFile(next);
  };
  const aborted = upload.error instanceof DOMException && upload.error.name === 'AbortError';
  return { reset, close, start, choose, aborted };
}
