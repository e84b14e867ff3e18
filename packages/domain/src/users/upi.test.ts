import { describe, expect, it } from 'vitest';
import { instalmentReference, parseInstalmentReference, upiPayLink } from './upi';

describe('upiPayLink (NPCI UPI linking specification)', () => {
  it('makes a standing shop link without an amount', () => {
    expect(upiPayLink({ vpa: 'ravimobiles@okaxis', payeeName: 'Ravi Mobiles & Co' })).toBe(
      'upi://pay?pa=ravimobiles@okaxis&pn=Ravi%20Mobiles%20%26%20Co&cu=INR',
    );
  });

  it('asks for an amount in rupees with two decimals, and carries the note', () => {
    const link = upiPayLink({
      vpa: 'ravimobiles@okaxis',
      payeeName: 'Ravi Mobiles',
      amountPaise: 901486,
      note: 'EMI PIN 482913 EMI 2',
    });
    expect(link).toBe(
      'upi://pay?pa=ravimobiles@okaxis&pn=Ravi%20Mobiles&am=9014.86&cu=INR&tn=EMI%20PIN%20482913%20EMI%202',
    );
    const parsed = new URL(link.replace('upi://', 'http://'));
    expect(parsed.searchParams.get('tn')).toBe('EMI PIN 482913 EMI 2');
    expect(parsed.searchParams.get('am')).toBe('9014.86');
  });

  it('percent-encodes non-ASCII payee names', () => {
    const link = upiPayLink({ vpa: 'ravi@ybl', payeeName: 'रवि मोबाइल' });
    expect(new URL(link.replace('upi://', 'http://')).searchParams.get('pn')).toBe('रवि मोबाइल');
    expect(link).not.toMatch(/[^\x21-\x7e]/);
  });
});

describe('instalment payment references (issue 29)', () => {
  it('names the customer and instalment in the intent as tr, and reads them back', () => {
    const link = upiPayLink({
      vpa: 'ravimobiles@okaxis',
      payeeName: 'Ravi Mobiles',
      amountPaise: 249_881,
      reference: instalmentReference(1234, 2),
      note: 'EMI 2',
    });
    expect(link).toBe(
      'upi://pay?pa=ravimobiles@okaxis&pn=Ravi%20Mobiles&am=2498.81&tr=KSH1234I2&cu=INR&tn=EMI%202',
    );
    expect(parseInstalmentReference('KSH1234I2')).toEqual({ customerId: 1234, instalmentNo: 2 });
    expect(parseInstalmentReference(' ksh1234i2 ')).toEqual({ customerId: 1234, instalmentNo: 2 });
    expect(['', 'KSH1234', 'KSHxI2', 'ABC1234I2', 'KSH1I1234'].map(parseInstalmentReference)).toEqual([
      null,
      null,
      null,
      null,
      null,
    ]);
  });
});
