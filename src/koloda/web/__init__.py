"""The web app: play Bank and Thousand in the browser with friends and bots, keep a Thousand score sheet.

``koloda serve`` starts it (docs/web.md); :func:`koloda.web.app.create_app` builds the ASGI app.
"""
