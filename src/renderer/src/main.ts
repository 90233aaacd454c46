// Renderer entry: install the back end API (Electron preload or browser mode), Pinia, the
// styles, then mount the wizard and run the start-up sequence.
import { createApp } from 'vue'
import { createPinia } from 'pinia'
import App from './App.vue'
import { api } from './api'
import { setApi } from './apiRef'
import { boot } from './boot'
import './styles/theme.css'
import './styles/base.css'
import './styles/components.css'

setApi(api)
const app = createApp(App)
app.use(createPinia())
app.mount('#app')
void boot(window.location.search)
