import { AD_TEXT_MAX, AD_TITLE_MAX } from '@kisht/domain/advertisements/advertisements.schema';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FilePickButton } from '../../../components/file-pick-button';
import { SectionCard } from '../../../components/section-card';
import { isApiError } from '../../../lib/http/base-query';
import { prepareUploadFile } from '../../../lib/upload-file';
import { useCreateAdvertisementMutation } from '../advertisements-api';

/**
 * Compose an advertisement: a title (1–80), a text (up to 500) and an optional image, compressed
 * per spec §5 when picked (longer side 1200 px, quality 0.8; JPEG stays JPEG, others become PNG)
 * and previewed; "Save" uploads it (`/upload/update_retailer_ad`) and calls `onSaved`.
 */
export const ComposeAdCard = ({ onSaved }: { onSaved: () => void }) => {
  const { t } = useTranslation();
  const [title, setTitle] = useState('');
  const [text, setText] = useState('');
  const [image, setImage] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [isPreparing, setIsPreparing] = useState(false);
  const [create, state] = useCreateAdvertisementMutation();

  useEffect(() => {
    if (!image) {
      setPreview(null);
      return undefined;
    }
    const url = URL.createObjectURL(image);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [image]);

  const pick = async (file: File) => {
    setProblem(null);
    setIsPreparing(true);
    const prepared = await prepareUploadFile(file, { canBePdf: false });
    setIsPreparing(false);
    if ('problem' in prepared) {
      setProblem(
        t(
          prepared.problem === 'notAllowed' ? 'upload.errors.imageOnly' : `upload.errors.${prepared.problem}`,
        ),
      );
      return;
    }
    setImage(prepared.file);
  };

  const save = async () => {
    const result = await create({ title: title.trim(), text: text.trim(), image });
    if ('data' in result && result.data) {
      setTitle('');
      setText('');
      setImage(null);
      onSaved();
    }
  };
  const apiError = isApiError(state.error) ? state.error : null;
  const serverFields = apiError?.fields ?? [];
  const fieldError = (name: string) => serverFields.find((f) => f.field === name)?.message;

  return (
    <SectionCard title={t('advertisements.compose.title')} testId="ad-compose">
      <Stack spacing={2}>
        <TextField
          label={t('advertisements.compose.adTitle')}
          value={title}
          onChange={(event) => setTitle(event.target.value)}
          slotProps={{ htmlInput: { maxLength: AD_TITLE_MAX, 'data-testid': 'ad-title' } }}
          error={Boolean(fieldError('title'))}
          helperText={fieldError('title') ?? `${title.length}/${AD_TITLE_MAX}`}
          required
          fullWidth
        />
        <TextField
          label={t('advertisements.compose.text')}
          value={text}
          onChange={(event) => setText(event.target.value)}
          slotProps={{ htmlInput: { maxLength: AD_TEXT_MAX, 'data-testid': 'ad-text' } }}
          error={Boolean(fieldError('text'))}
          helperText={fieldError('text') ?? `${text.length}/${AD_TEXT_MAX}`}
          multiline
          minRows={3}
          fullWidth
        />
        {preview ? (
          <Box
            component="img"
            src={preview}
            alt={t('advertisements.compose.preview')}
            data-testid="ad-image-preview"
            sx={{
              width: '100%',
              maxHeight: 220,
              objectFit: 'contain',
              borderRadius: 1,
              bgcolor: 'action.hover',
            }}
          />
        ) : null}
        <Stack direction="row" spacing={1}>
          <FilePickButton
            label={image ? t('advertisements.compose.replaceImage') : t('advertisements.compose.addImage')}
            accept="image/png,image/jpeg,image/webp"
            variant="outlined"
            onFile={(file) => void pick(file)}
            isBusy={isPreparing}
            inputTestId="ad-image-input"
          />
          {image ? (
            <Button color="inherit" onClick={() => setImage(null)} data-testid="ad-image-remove">
              {t('advertisements.compose.removeImage')}
            </Button>
          ) : null}
        </Stack>
        {problem || fieldError('file') ? (
          <Alert severity="error">{problem ?? fieldError('file')}</Alert>
        ) : null}
        {apiError && serverFields.length === 0 ? <Alert severity="error">{apiError.message}</Alert> : null}
        <Button
          variant="contained"
          size="large"
          disabled={title.trim() === '' || isPreparing}
          loading={state.isLoading}
          onClick={() => void save()}
          data-testid="ad-save"
        >
          {t('advertisements.compose.save')}
        </Button>
      </Stack>
    </SectionCard>
  );
};
