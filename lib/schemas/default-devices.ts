// The devices a new ISV offers its merchants until it sets its own (`settings.devices`).
export const defaultDevices = [
  {
    id: "pax-a920",
    name: "PAX A920 Pro",
    description: "Portable smart terminal with printer, chip, tap and swipe",
    description_es: "Terminal inteligente portátil con impresora, chip, sin contacto y banda",
    price: 34900,
  },
  {
    id: "pax-a80",
    name: "PAX A80",
    description: "Countertop terminal with PIN pad, chip, tap and swipe",
    description_es: "Terminal de mostrador con teclado PIN, chip, sin contacto y banda",
    price: 24900,
  },
  {
    id: "dejavoo-z11",
    name: "Dejavoo Z11",
    description: "Compact countertop terminal",
    description_es: "Terminal de mostrador compacto",
    price: 19900,
  },
];
