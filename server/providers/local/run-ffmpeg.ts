import "server-only";
import { spawn } from "node:child_process";
import { RenderTimeoutError } from "./render-errors";

// Runs the ffmpeg binary shipped in @ffmpeg-installer/ffmpeg, killing it on timeout or abort.

let binary: Promise<string> | undefined;

/** Resolved on first use: the package throws at import time when its binary is missing. */
export function ffmpegPath(): Promise<string> {
  binary ??= import("@ffmpeg-installer/ffmpeg").then((module) => (module.default ?? module).path);
  return binary;
}

const STDERR_TAIL = 2_000;

export async function runFfmpeg(args: readonly string[], options: { timeoutMs: number; signal?: AbortSignal }): Promise<void> {
  options.signal?.throwIfAborted();
  const path = await ffmpegPath();
  await new Promise<void>((resolve, reject) => {
    const child = spawn(path, ["-hide_banner", "-nostdin", "-loglevel", "error", ...args], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    let failure: Error | undefined;
    const stop = (error: Error) => {
      failure ??= error;
      child.kill("SIGKILL");
    };
    const timer = setTimeout(() => stop(new RenderTimeoutError(`ffmpeg timed out after ${options.timeoutMs} ms`)), options.timeoutMs);
    const onAbort = () => stop(options.signal?.reason instanceof Error ? options.signal.reason : new Error("render aborted"));
    options.signal?.addEventListener("abort", onAbort, { once: true });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL);
    });
    const finish = (error?: Error) => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      if (error) reject(error);
      else resolve();
    };
    child.on("error", (error) => finish(failure ?? error));
    child.on("close", (code, signal) => {
      if (failure) finish(failure);
      else if (code !== 0) finish(new Error(`ffmpeg exited with ${code ?? signal}: ${stderr.trim()}`));
      else finish();
    });
  });
}
