import { SIGNATURE_MIME_TYPE } from '@kisht/domain/media/media.schema';
import { useCallback, useEffect, useRef, useState } from 'react';
import SignaturePad from 'signature_pad';

/** The pad's background: signatures are saved on white, so they read on any screen or paper. */
const PAD_BACKGROUND = 'rgb(255, 255, 255)';

/**
 * A signature_pad on a canvas. The canvas is sized to its box in device pixels (sharp strokes on
 * a phone) and redrawn after a resize. `isEmpty` follows the strokes; `toPngFile` exports the
 * drawing as a PNG file (canvas.toBlob), or null when the browser cannot. `isSupported` is false
 * when the browser gives no 2D canvas context.
 */
export const useSignaturePad = () => {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const padRef = useRef<SignaturePad | null>(null);
  const [isEmpty, setIsEmpty] = useState(true);
  const [isSupported, setIsSupported] = useState(true);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return undefined;
    let pad: SignaturePad;
    try {
      pad = new SignaturePad(canvas, { backgroundColor: PAD_BACKGROUND });
    } catch {
      // No 2D canvas context (spec §5 'Canvas context is not supported'): nothing can be drawn.
      setIsSupported(false);
      return undefined;
    }
    padRef.current = pad;
    const handleEndStroke = () => setIsEmpty(pad.isEmpty());
    pad.addEventListener('endStroke', handleEndStroke);

    const fitCanvas = () => {
      const ratio = Math.max(window.devicePixelRatio || 1, 1);
      const strokes = pad.toData();
      canvas.width = canvas.offsetWidth * ratio;
      canvas.height = canvas.offsetHeight * ratio;
      canvas.getContext('2d')?.scale(ratio, ratio);
      // Resizing a canvas wipes it: draw the strokes again.
      pad.clear();
      pad.fromData(strokes);
    };
    fitCanvas();
    window.addEventListener('resize', fitCanvas);
    return () => {
      window.removeEventListener('resize', fitCanvas);
      pad.removeEventListener('endStroke', handleEndStroke);
      pad.off();
      padRef.current = null;
    };
  }, []);

  const clear = useCallback(() => {
    padRef.current?.clear();
    setIsEmpty(true);
  }, []);

  const toPngFile = useCallback(
    (fileName: string) =>
      new Promise<File | null>((resolve) => {
        const canvas = canvasRef.current;
        if (!canvas) {
          resolve(null);
          return;
        }
        canvas.toBlob(
          (blob) => resolve(blob ? new File([blob], fileName, { type: SIGNATURE_MIME_TYPE }) : null),
          SIGNATURE_MIME_TYPE,
        );
      }),
    [],
  );

  return { canvasRef, isEmpty, isSupported, clear, toPngFile };
};
