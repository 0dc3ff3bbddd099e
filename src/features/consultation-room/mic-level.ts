/**
 * The microphone's loudness, 0..1, reported about 15 times a second while the meter is shown.
 * Returns a function that stops it and frees the audio context.
 */
export function watchMicLevel(
  track: MediaStreamTrack,
  onLevel: (level: number) => void,
): () => void {
  const context = new AudioContext();
  const source = context.createMediaStreamSource(new MediaStream([track]));
  const analyser = context.createAnalyser();
  analyser.fftSize = 512;
  source.connect(analyser);
  const samples = new Float32Array(analyser.fftSize);
  const timer = setInterval(() => {
    analyser.getFloatTimeDomainData(samples);
    let sum = 0;
    for (const s of samples) sum += s * s;
    const rms = Math.sqrt(sum / samples.length);
    // Speech sits around 0.02–0.2 RMS; a square root spreads it across the bar.
    onLevel(Math.min(1, Math.sqrt(rms * 5)));
  }, 66);
  return () => {
    clearInterval(timer);
    source.disconnect();
    void context.close();
  };
}
